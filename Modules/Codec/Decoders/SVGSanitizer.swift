import CXMLShims
import Foundation
import OspreyDomain

/// An SVG document cut down to what an allow-list keeps, before it is drawn or answered as SVG:
/// DOMPurify's SVG and SVG-filter profiles without SMIL animation (elements and attributes
/// that draw, in SVG's namespace), references inside the document only (`#…`), CSS decoded as a
/// browser decodes it and kept only when every function draws and `url()` names a fragment,
/// and embedded raster images (PNG, JPEG, GIF, WebP as base64 `data:` URLs) read from their
/// headers and bounded by ``DecodingLimits`` as any source is — every frame counted, and all
/// of them together — since librsvg decodes them through gdk-pixbuf with none of Osprey's limits.
/// External entities and the network are never touched. The document is streamed, never held
/// as a tree: memory is the output and one node (some three times the document's bytes in
/// all); the walk stops when the task is cancelled.
public enum SVGSanitizer {
    /// A sanitised document.
    public struct Sanitized: Sendable {
        /// The document as kept.
        public let data: Data
        /// The pixels of the raster images embedded in it, every frame counted: what drawing
        /// it decodes besides its own surface.
        public let embeddedPixels: Int
        /// The size its root declares, read as librsvg reads it at 72 DPI (absolute `width` and
        /// `height`, else the `viewBox`'s); `nil` when only drawing it would tell.
        public let declaredSize: PixelSize?
    }

    /// `data` sanitised, its embedded images checked against `limits`.
    /// - Throws: ``ImageDecodingError/corrupt(_:detail:)`` when it is not well-formed XML with
    ///   an `svg` root, ``ImageDecodingError/tooManyPixels(width:height:limit:)`` when an
    ///   embedded image (or all of them together) is past the limits, or
    ///   ``ImageDecodingError/cancelled``.
    public static func sanitized(_ data: Data, limits: DecodingLimits = .default) throws(ImageDecodingError) -> Sanitized {
        let embedded = DocumentChecks(limits: limits)
        var written: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = withExtendedLifetime(embedded) {
            var checks = osp_svg_checks(
                cancelled: { _ in Task.isCancelled ? 1 : 0 },
                image: { base64, length, context in
                    Unmanaged<DocumentChecks>.fromOpaque(context!).takeUnretainedValue().check(UnsafeBufferPointer(start: base64, count: length))
                },
                root: { width, height, viewBox, context in
                    let string = { (text: UnsafePointer<CChar>?) in text.map { String(cString: $0) } }
                    Unmanaged<DocumentChecks>.fromOpaque(context!).takeUnretainedValue().declaredSize =
                        DocumentChecks.size(width: string(width), height: string(height), viewBox: string(viewBox))
                },
                context: Unmanaged.passUnretained(embedded).toOpaque())
            return data.withUnsafeBytes { bytes in
                osp_svg_sanitize(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &checks, &written, &count)
            }
        }
        switch status {
        case Int32(OSP_SVG_OK):
            guard let written else { break }
            defer { osp_svg_free(written) }
            return Sanitized(data: Data(bytes: written, count: count), embeddedPixels: embedded.pixels, declaredSize: embedded.declaredSize)
        case Int32(OSP_SVG_CANCELLED):
            throw .cancelled
        case Int32(OSP_SVG_REFUSED):
            throw embedded.refusal ?? .tooManyPixels(width: 0, height: 0, limit: limits.maxPixels)
        default:
            break
        }
        throw .corrupt(.svg, detail: "not well-formed XML with an svg root")
    }
}

/// What the sanitiser meets in one document: its root's size, and its raster images.
private final class DocumentChecks {
    let limits: DecodingLimits
    var declaredSize: PixelSize?
    private(set) var pixels = 0
    private(set) var refusal: ImageDecodingError?
    private let readers: [ImageFormat: any ImageInfoReading]

    init(limits: DecodingLimits) {
        self.limits = limits
        readers = [.png: PNGDecoder(limits: limits), .jpeg: JPEGDecoder(limits: limits), .gif: GIFDecoder(limits: limits),
                   .webp: WebPDecoder(limits: limits)]
    }

    /// 1 to keep the image, 0 to drop its reference (not an image of these formats), -1 to
    /// refuse the document (past the limits, alone or with the others).
    func check(_ base64: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let bytes = Data(base64Encoded: Data(base64), options: .ignoreUnknownCharacters),
              let format = FormatDetector.detect(bytes.prefix(64)), let reader = readers[format],
              let info = try? reader.info(.data(bytes)) else { return 0 }
        do {
            try limits.check(width: info.width, height: info.height)
        } catch {
            refusal = error
            return -1
        }
        let (sum, overflow) = pixels.addingReportingOverflow(PixelSize(width: info.width, height: info.height).area(frames: info.frameCount))
        guard !overflow, sum <= limits.maxPixels else {
            refusal = .tooManyPixels(width: info.width, height: info.height, limit: limits.maxPixels)
            return -1
        }
        pixels = sum
        return 1
    }

    /// A root's size as librsvg takes it at 72 DPI: absolute `width` and `height`, else the
    /// `viewBox`'s width and height; `nil` for percentages without a `viewBox`, or nothing.
    static func size(width: String?, height: String?, viewBox: String?) -> PixelSize? {
        var sides = (pixels(width), pixels(height))
        if sides.0 == nil || sides.1 == nil, let viewBox {
            let numbers = viewBox.split { $0 == " " || $0 == "," || $0.isNewline || $0 == "\t" }.compactMap { Double($0) }
            if numbers.count == 4 { sides = (numbers[2], numbers[3]) }
        }
        guard let w = sides.0, let h = sides.1, w.isFinite, h.isFinite, w >= 0.5, h >= 0.5, w < 1e9, h < 1e9 else { return nil }
        return PixelSize(rounding: w, h, rule: .up)
    }

    /// A length in CSS pixels at 72 DPI (librsvg's `em` is 12 of them); `nil` for a percentage.
    private static func pixels(_ length: String?) -> Double? {
        guard let text = length?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty, !text.hasSuffix("%") else { return nil }
        let units: [(String, Double)] = [("px", 1), ("in", 72), ("cm", 72 / 2.54), ("mm", 72 / 25.4), ("pt", 1), ("pc", 12), ("em", 12), ("ex", 6)]
        for (unit, factor) in units where text.hasSuffix(unit) { return Double(text.dropLast(2)).map { $0 * factor } }
        return Double(text)
    }
}
