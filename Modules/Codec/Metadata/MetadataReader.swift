import Foundation
import OspreyDomain

/// Reads the EXIF, XMP and IPTC blocks of a JPEG, PNG or WebP file from its container,
/// without decoding it: the segments before a JPEG's scan, a PNG's `eXIf` and XMP `iTXt`
/// chunks, a WebP's `EXIF` and `XMP ` chunks. A file is read where the blocks are, not whole.
///
/// Defensive as ``ExifReader``: every length is checked, and a broken container gives what
/// was read before the break, never an error.
enum MetadataReader {
    static let exifPrefix = Array("Exif\0\0".utf8)
    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let photoshopPrefix = Array("Photoshop 3.0\0".utf8)

    /// The blocks of `input`, a `format` file; `nil` when it has none or is another format.
    static func metadata(of input: ImageInput, format: ImageFormat) -> ImageMetadata? {
        guard [.jpeg, .png, .webp].contains(format), let bytes = RandomAccessBytes(input) else { return nil }
        let metadata = switch format {
        case .jpeg: jpeg(bytes)
        case .png: png(bytes)
        default: webp(bytes)
        }
        return metadata.isEmpty ? nil : metadata
    }

    private static func jpeg(_ bytes: RandomAccessBytes) -> ImageMetadata {
        var metadata = ImageMetadata()
        var offset = 2
        for _ in 0..<4_096 {
            guard let head = bytes.read(offset, 4), head[0] == 0xFF else { break }
            let marker = head[1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { break }  // the scan, or the end: no metadata after
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else { break }
            if marker == 0xE1 || marker == 0xED, let payload = bytes.read(offset + 4, length - 2) {
                if marker == 0xE1, metadata.exif == nil, payload.starts(with: exifPrefix) {
                    metadata.exif = Data(payload.dropFirst(exifPrefix.count))
                } else if marker == 0xE1, metadata.xmp == nil, payload.starts(with: xmpPrefix) {
                    metadata.xmp = Data(payload.dropFirst(xmpPrefix.count))
                } else if marker == 0xED, metadata.iptc == nil, payload.starts(with: photoshopPrefix) {
                    metadata.iptc = PhotoshopResources.iptc(in: payload.dropFirst(photoshopPrefix.count))
                }
            }
            offset += 2 + length
        }
        return ImageMetadata(exif: metadata.exif, xmp: metadata.xmp, iptc: metadata.iptc)
    }

    private static func png(_ bytes: RandomAccessBytes) -> ImageMetadata {
        var metadata = ImageMetadata()
        var offset = 8
        let keyword = Array("XML:com.adobe.xmp\0".utf8)
        for _ in 0..<100_000 {
            guard let head = bytes.read(offset, 8) else { break }
            let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            let type = String(decoding: head[4..<8], as: UTF8.self)
            guard length >= 0, length <= Int(Int32.max), type != "IEND" else { break }
            if type == "eXIf", metadata.exif == nil {
                metadata.exif = bytes.read(offset + 8, length).map { Data($0) }
            } else if type == "iTXt", metadata.xmp == nil, length > keyword.count + 4,
                      let text = bytes.read(offset + 8, length), text.starts(with: keyword), text[keyword.count] == 0 {
                // Uncompressed only, after the language tag and the translated keyword.
                var rest = text.dropFirst(keyword.count + 2)
                for _ in 0..<2 {
                    guard let end = rest.firstIndex(of: 0) else { rest = []; break }
                    rest = rest[(end + 1)...]
                }
                metadata.xmp = rest.isEmpty ? nil : Data(rest)
            }
            offset += 12 + length
        }
        return ImageMetadata(exif: metadata.exif, xmp: metadata.xmp)
    }

    private static func webp(_ bytes: RandomAccessBytes) -> ImageMetadata {
        guard let header = bytes.read(0, 12), header.starts(with: Array("RIFF".utf8)), header[8..<12].elementsEqual("WEBP".utf8) else {
            return ImageMetadata()
        }
        var metadata = ImageMetadata()
        var offset = 12
        for _ in 0..<100_000 {
            guard let head = bytes.read(offset, 8) else { break }
            let type = String(decoding: head[0..<4], as: UTF8.self)
            let length = Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
            if type == "EXIF", metadata.exif == nil, var payload = bytes.read(offset + 8, length) {
                if payload.starts(with: exifPrefix) { payload.removeFirst(exifPrefix.count) }
                metadata.exif = Data(payload)
            } else if type == "XMP ", metadata.xmp == nil {
                metadata.xmp = bytes.read(offset + 8, length).map { Data($0) }
            }
            offset += 8 + length + (length & 1)
        }
        return ImageMetadata(exif: metadata.exif, xmp: metadata.xmp)
    }
}
