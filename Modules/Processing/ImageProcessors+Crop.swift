import OspreyDomain

extension ImageProcessors {
    /// Cuts out a rectangle given in pixels from the top left corner.
    public struct Crop: ImageProcessing, Hashable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        /// Creates a crop of `width` × `height` pixels at (`x`, `y`).
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public var identifier: String { "crop(\(x),\(y),\(width),\(height))" }

        public func outputSize(for input: PixelSize) -> PixelSize { PixelSize(width: width, height: height) }

        public var keepsHighBitDepth: Bool { true }

        /// - Throws: `ImageProcessingError/invalidParameters(processor:reason:)` when the
        ///   rectangle is empty or reaches outside the image.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard width > 0, height > 0, x >= 0, y >= 0, x + width <= image.width, y + height <= image.height else {
                throw .invalidParameters(processor: identifier, reason: "the rectangle is not inside the \(image.size) image")
            }
            let bpp = image.pixelFormat.bytesPerPixel
            var pixels = [UInt8]()
            pixels.reserveCapacity(width * height * bpp)
            for row in y..<y + height {
                let start = row * image.bytesPerRow + x * bpp
                pixels += image.pixels[start..<start + width * bpp]
            }
            return try! Image(width: width, height: height, pixelFormat: image.pixelFormat, pixels: pixels)
        }
    }
}
