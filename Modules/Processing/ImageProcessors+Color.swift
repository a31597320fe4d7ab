import OspreyDomain

extension ImageProcessors {
    /// Grayscale by Rec. 601 luma. Opaque images become one-channel gray; images with
    /// alpha stay RGBA, with gray colour and their alpha kept.
    public struct Grayscale: ImageProcessing, Hashable {
        /// Creates the processor.
        public init() {}

        public var identifier: String { "grayscale" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            if image.pixelFormat == .gray8 { return image }
            var buffer = RGBABuffer(image)
            for i in stride(from: 0, to: buffer.pixels.count, by: 4) {
                let y = UInt8(luma(buffer.pixels[i], buffer.pixels[i + 1], buffer.pixels[i + 2]))
                (buffer.pixels[i], buffer.pixels[i + 1], buffer.pixels[i + 2]) = (y, y, y)
            }
            if image.pixelFormat.hasAlpha { return buffer.image }
            let gray = stride(from: 0, to: buffer.pixels.count, by: 4).map { buffer.pixels[$0] }
            return try! Image(width: image.width, height: image.height, pixelFormat: .gray8, pixels: gray)
        }
    }

    /// A monochrome tint: each pixel becomes `color` scaled by the pixel's luma, so white
    /// becomes the colour and black stays black. Alpha is kept; the colour's alpha mixes
    /// the tinted pixel with the original (255: fully tinted).
    public struct Tint: ImageProcessing, Hashable {
        public var color: RGBAColor

        /// Creates the processor.
        public init(color: RGBAColor) { self.color = color }

        public var identifier: String { "tint(\(color))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            var buffer = RGBABuffer(image)
            let mix = Int(color.alpha)
            let channels = [Int(color.red), Int(color.green), Int(color.blue)]
            for i in stride(from: 0, to: buffer.pixels.count, by: 4) {
                let y = luma(buffer.pixels[i], buffer.pixels[i + 1], buffer.pixels[i + 2])
                for c in 0..<3 {
                    let tinted = (channels[c] * y + 127) / 255
                    buffer.pixels[i + c] = UInt8((tinted * mix + Int(buffer.pixels[i + c]) * (255 - mix) + 127) / 255)
                }
            }
            return buffer.image(like: image)
        }
    }

    /// Lays `color` over the image at `fraction` opacity (0: unchanged, 1: flat colour),
    /// over its opaque parts only: alpha is kept.
    public struct ColorOverlay: ImageProcessing, Hashable {
        public var color: RGBAColor
        public var fraction: Double

        /// Creates the processor; `fraction` is clamped to `0...1`.
        public init(color: RGBAColor, fraction: Double = 0.5) {
            self.color = color
            self.fraction = min(max(fraction, 0), 1)
        }

        public var identifier: String { "overlay(\(color),\(Int((fraction * 1000).rounded())))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            var buffer = RGBABuffer(image)
            let f = Int((fraction * 255).rounded())
            let channels = [Int(color.red), Int(color.green), Int(color.blue)]
            for i in stride(from: 0, to: buffer.pixels.count, by: 4) {
                for c in 0..<3 {
                    buffer.pixels[i + c] = UInt8((channels[c] * f + Int(buffer.pixels[i + c]) * (255 - f) + 127) / 255)
                }
            }
            return buffer.image(like: image)
        }
    }
}
