import CCodecLoader
import Foundation
import OspreyDomain
import OspreyPixels

/// Rasterises SVG with librsvg, opened on first use: drawn at the size asked rather than at its
/// own size and then resampled. A vector image has no pixels to lose, so, unlike the other
/// decoders and as imgproxy treats vectors, it is drawn larger than its own size when the
/// target is larger. Its size is its `width` and `height` at 72 DPI (libvips'), or its
/// `viewBox`'s. The document is first cut down by ``SVGSanitizer`` — which also reads and
/// bounds its embedded raster images, which librsvg would decode without Osprey's limits —
/// then parsed from memory with no base location, so librsvg loads no external resource (no
/// `http:`, no `file:`); its own limits bound the XML it parses.
public struct SVGDecoder: ImageDecoding {
    /// The limits: the input's bytes, and the pixels drawn.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .svg)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try SVGSanitizer.sanitized(try InputReader.allBytes(of: input), limits: limits).data
        try ImageDecodingError.checkCancellation()
        return try Self.with(data) { svg, size throws(ImageDecodingError) in
            let output = Self.outputSize(of: size, options: options)
            try limits.check(width: output.width, height: output.height)
            var pixels = [UInt8](repeating: 0, count: output.byteCount(bytesPerPixel: 4))
            var message = [CChar](repeating: 0, count: 256)
            let status = pixels.withUnsafeMutableBufferPointer { buffer in
                osp_svg_render(svg, UInt32(output.width), UInt32(output.height), buffer.baseAddress, &message, message.count)
            }
            guard status == 0 else { throw .corrupt(.svg, detail: String(cMessage: message)) }
            do {
                // cairo draws premultiplied; decoders give straight alpha.
                let drawn = try Image(width: output.width, height: output.height, pixelFormat: .rgba8Premultiplied, pixels: pixels)
                return FillCrop.apply(PixelConversion.converted(drawn, to: .rgba8), options: options)
            } catch {
                throw .corrupt(.svg, detail: "\(error)")
            }
        }
    }

    /// What drawing holds: the surface at the size drawn (larger than the document's own
    /// when the target is), the raster images embedded in it as gdk-pixbuf decodes them, and
    /// librsvg's tree of the sanitised document (some thirty times its bytes, as libxml2's).
    public func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate? {
        try InputReader.checkLength(of: input, limits: limits)
        let sanitized = try SVGSanitizer.sanitized(try InputReader.allBytes(of: input), limits: limits)
        // The root's declared size where it has one: librsvg's tree, the cost counted here,
        // is built only when drawing it is the one way to tell.
        let size: PixelSize
        if let declared = sanitized.declaredSize {
            size = declared
        } else {
            size = try Self.with(sanitized.data) { _, size throws(ImageDecodingError) in size }
        }
        let tree = sanitized.data.count.multipliedReportingOverflow(by: 30)
        let embedded = sanitized.embeddedPixels.multipliedReportingOverflow(by: 4)
        let (working, overflow) = embedded.partialValue.addingReportingOverflow(tree.partialValue)
        return DecodeEstimate(size: Self.outputSize(of: size, options: options), frames: 1, bytesPerPixel: 4,
                              workingBytes: overflow || tree.overflow || embedded.overflow ? .max : working)
    }

    /// The document's own size, without drawing it.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try Self.with(try InputReader.allBytes(of: input)) { _, size throws(ImageDecodingError) in
            ImageInfo(format: .svg, width: size.width, height: size.height, orientation: 1, hasAlpha: true, frameCount: 1)
        }
    }

    /// The size drawn: the document scaled to fit (or cover, for `fill`) the target, larger
    /// or smaller; its own size without one.
    static func outputSize(of size: PixelSize, options: DecodingOptions) -> PixelSize {
        guard let target = options.targetSize, target.width > 0 || target.height > 0 else { return size }
        let scale = size.scale(toFit: target, mode: options.contentMode)
        let drawn = PixelSize(rounding: Double(size.width) * scale, Double(size.height) * scale)
        return PixelSize(width: max(1, drawn.width), height: max(1, drawn.height))
    }

    /// Runs `body` with the parsed document and its size in whole pixels.
    private static func with<T>(_ data: Data, _ body: (OpaquePointer, PixelSize) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        var (width, height) = (0.0, 0.0)
        var message = [CChar](repeating: 0, count: 256)
        let handle = data.withUnsafeBytes { raw in
            osp_svg_open(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &width, &height, &message, message.count)
        }
        guard let handle else {
            let reason = String(cMessage: message)
            throw osp_svg_available() == 0 ? .unsupportedFormat(.svg, detail: reason) : .corrupt(.svg, detail: reason)
        }
        defer { osp_svg_close(handle) }
        // A size that cannot be drawn (none, negative, NaN or past Int) is the document's fault.
        guard width.isFinite, height.isFinite, width >= 0.5, height >= 0.5, width < 1e9, height < 1e9 else {
            throw .corrupt(.svg, detail: "the document has no size to draw at (\(width)x\(height))")
        }
        return try body(handle, PixelSize(rounding: width, height, rule: .up))
    }
}
