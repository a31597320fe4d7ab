import CXMLShims
import Foundation
import OspreyDomain

extension ImageMetadata {
    /// The blocks `policy` keeps, ready for an encoder; `nil` when none is left.
    func kept(by policy: MetadataPolicy) -> ImageMetadata? {
        switch policy {
        case .strip: return nil
        case .all: return self
        case .copyright:
            let kept = ImageMetadata(exif: exif.flatMap(ExifEditor.authorshipOnly), xmp: xmp.flatMap(Self.rightsOnly),
                                     iptc: iptc.flatMap(IPTCRecords.authorshipOnly))
            return kept.isEmpty ? nil : kept
        }
    }

    /// The XMP packet's authorship and rights properties (libxml2, CXMLShims/xmp_rights.c).
    private static func rightsOnly(_ xmp: Data) -> Data? {
        xmp.withUnsafeBytes { raw -> Data? in
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            guard osp_xmp_keep_rights(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out, &size) == 0, let out else { return nil }
            defer { osp_xmp_free(out) }
            return Data(bytes: out, count: size)
        }
    }
}
