import OspreyDomain

extension ImageProcessors {
    /// Lays the image on an opaque colour, as imgproxy's `background`: transparent parts show
    /// the colour and the result has no alpha. An opaque image is returned as it is.
    public struct Background: ImageProcessing, Hashable {
        /// The colour; its alpha is not used.
        public var color: RGBAColor

        /// Creates the processor.
        public init(color: RGBAColor) { self.color = color }

        public var identifier: String { "background(\(RGBAColor(red: color.red, green: color.green, blue: color.blue)))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard image.pixelFormat.hasAlpha else { return image }
            let source = RGBABuffer(image)
            let under = [Int(color.red), Int(color.green), Int(color.blue)]
            var pixels = [UInt8](repeating: 0, count: image.width * image.height * 3)
            for pixel in 0..<image.width * image.height {
                let alpha = Int(source.pixels[pixel * 4 + 3])
                for channel in 0..<3 {
                    let over = Int(source.pixels[pixel * 4 + channel])
                    pixels[pixel * 3 + channel] = UInt8((over * alpha + under[channel] * (255 - alpha) + 127) / 255)
                }
            }
            return try! Image(width: image.width, height: image.height, pixelFormat: .rgb8, pixels: pixels)
        }
    }
}
