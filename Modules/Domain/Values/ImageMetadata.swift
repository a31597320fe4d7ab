import Foundation

/// The EXIF, XMP and IPTC blocks an image's file came with, carried beside its pixels so an
/// encoder can write them again (``EncodingOptions/metadata`` says which). A decoder that
/// turned the pixels upright sets the EXIF orientation to 1, so the blocks always describe
/// the pixels as they are.
public struct ImageMetadata: Hashable, Sendable {
    /// EXIF: a TIFF structure from its header (`II*\0` or `MM\0*`), without `Exif\0\0`.
    public var exif: Data?
    /// XMP: the packet's XML.
    public var xmp: Data?
    /// IPTC-IIM datasets (each `0x1C`, record, dataset, length, value), without the Photoshop
    /// resource around them.
    public var iptc: Data?

    /// Metadata with the blocks given; an empty block counts as none.
    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.exif = exif?.isEmpty == false ? exif : nil
        self.xmp = xmp?.isEmpty == false ? xmp : nil
        self.iptc = iptc?.isEmpty == false ? iptc : nil
    }

    /// Whether there is no block at all.
    public var isEmpty: Bool { exif == nil && xmp == nil && iptc == nil }

    /// The blocks' bytes together, for memory accounting.
    public var byteCount: Int { (exif?.count ?? 0) + (xmp?.count ?? 0) + (iptc?.count ?? 0) }
}
