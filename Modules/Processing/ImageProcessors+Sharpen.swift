import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// An unsharp mask: each colour channel moves away from its Gaussian blur (of `radius`,
    /// as ``GaussianBlur``) by the difference, so edges gain contrast. Alpha is kept.
    public struct Sharpen: ImageProcessing, Hashable {
        public var radius: Int

        /// Creates the processor; radius 0 leaves the image as it is.
        public init(radius: Int) { self.radius = radius }

        public var identifier: String { "sharpen(\(radius))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard radius >= 0 else { throw .invalidParameters(processor: identifier, reason: "the radius must not be negative") }
            guard radius > 0 else { return image }
            let source = image.pixelFormat == .rgba8Premultiplied ? PixelConversion.unpremultiplied(image) : image
            let blurred = try GaussianBlur(radius: radius).process(source)
            let bpp = source.pixelFormat.bytesPerPixel, colours = source.pixelFormat.hasAlpha ? bpp - 1 : bpp
            var pixels = source.pixels
            for y in 0..<source.height {
                if y & 63 == 0 { try ImageProcessingError.checkCancellation() }
                for x in 0..<source.width {
                    let p = y * source.bytesPerRow + x * bpp, q = y * blurred.bytesPerRow + x * bpp
                    for c in 0..<colours {
                        pixels[p + c] = UInt8(clamping: 2 * Int(source.pixels[p + c]) - Int(blurred.pixels[q + c]))
                    }
                }
            }
            return try! Image(width: source.width, height: source.height, pixelFormat: source.pixelFormat,
                              bytesPerRow: source.bytesPerRow, pixels: pixels)
        }
    }
}
