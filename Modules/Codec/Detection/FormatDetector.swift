import Foundation
import OspreyDomain

/// Recognises image formats by their magic bytes — never by a file extension or a
/// Content-Type, which callers and servers get wrong.
public enum FormatDetector {
    /// How many leading bytes ``detect(_:)`` needs at most: binary formats need 32, SVG the
    /// XML declaration, comments and doctype before its `<svg`.
    public static let prefixLength = 512

    /// The format the bytes starting with `prefix` are in, or `nil` for no image format
    /// Osprey knows (decodable or not).
    public static func detect(_ prefix: Data) -> ImageFormat? {
        let b = [UInt8](prefix.prefix(32))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + magic.count && Array(b[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        // Classic TIFF (42) and BigTIFF (43), little- and big-endian.
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) {
            return .tiff
        }
        // BMP: "BM" and a DIB header size that exists; ICO and CUR: a directory of 1 or more
        // entries whose reserved byte is 0.
        if starts(Array("BM".utf8)), b.count >= 18, [12, 40, 52, 56, 64, 108, 124].contains(Int(b[14]) | Int(b[15]) << 8), b[16] == 0, b[17] == 0 {
            return .bmp
        }
        if (starts([0, 0, 1, 0]) || starts([0, 0, 2, 0])), b.count >= 22, b[4] | b[5] != 0, b[9] == 0 { return .ico }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        if starts(Array("ftyp".utf8), at: 4), b.count >= 12 {
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return .avif }
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) {
                // mif1 is the generic HEIF brand; AVIF files may carry it too.
                return b.count >= 24 && String(decoding: b[16..<24], as: UTF8.self).contains("avif") ? .avif : .heic
            }
        }
        return isSVG(prefix.prefix(prefixLength)) ? .svg : nil
    }

    /// Whether the text starts, after a byte order mark, white space, an XML declaration,
    /// comments and a doctype, with an `<svg` element.
    static func isSVG(_ prefix: Data) -> Bool {
        var text = Substring(String(decoding: prefix, as: UTF8.self))
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        let ends = ["<?": "?>", "<!--": "-->", "<!DOCTYPE": ">", "<!doctype": ">"]
        while true {
            text = text.drop { $0.isWhitespace }
            guard let (start, end) = ends.first(where: { text.hasPrefix($0.key) }) else { break }
            guard let close = text.dropFirst(start.count).range(of: end) else { return false }
            text = text[close.upperBound...]
        }
        guard text.hasPrefix("<svg"), let next = text.dropFirst(4).first else { return false }
        return next.isWhitespace || next == ">" || next == "/"
    }

    /// The format of `prefix` if Osprey decodes it.
    /// - Throws: `ImageDecodingError/notAnImage(prefix:)` or
    ///   `ImageDecodingError/unsupportedFormat(_:detail:)`.
    public static func decodableFormat(_ prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        guard let format = detect(prefix) else {
            throw .notAnImage(prefix: ImageDecodingError.describePrefix(prefix))
        }
        guard [.jpeg, .png, .webp, .gif, .avif, .heic, .jxl, .tiff, .bmp, .ico, .svg].contains(format) else {
            throw .unsupportedFormat(format, detail: "Osprey decodes JPEG, PNG, WebP, GIF, AVIF, HEIC, JPEG XL, TIFF, BMP, ICO and SVG")
        }
        return format
    }

    /// `prefix`'s format when it is `expected`, for a decoder of one format.
    /// - Throws: as ``decodableFormat(_:)``, and `unsupportedFormat` for another decodable format.
    public static func decodableFormat(_ prefix: Data, expecting expected: ImageFormat) throws(ImageDecodingError) -> ImageFormat {
        let format = try decodableFormat(prefix)
        guard format == expected else { throw .unsupportedFormat(format, detail: "this decoder reads \(expected) only") }
        return format
    }
}
