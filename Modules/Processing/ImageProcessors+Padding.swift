import OspreyDomain

extension ImageProcessors {
    /// Adds a border of `color` around the image, as imgproxy's `padding`: the image grows by
    /// the padding. Without a colour the border is transparent.
    public struct Padding: ImageProcessing, Hashable {
        public var top: Int
        public var right: Int
        public var bottom: Int
        public var left: Int
        /// The border's colour; `nil` for transparent.
        public var color: RGBAColor?

        /// Creates a border of the given widths in pixels.
        public init(top: Int, right: Int, bottom: Int, left: Int, color: RGBAColor? = nil) {
            (self.top, self.right, self.bottom, self.left) = (top, right, bottom, left)
            self.color = color
        }

        public var identifier: String {
            "padding(\(top),\(right),\(bottom),\(left)\(color.map { ",\($0)" } ?? ""))"
        }

        /// - Throws: `ImageProcessingError/invalidParameters(processor:reason:)` for a negative
        ///   width or a result larger than 16384 pixels a side.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard min(top, right, bottom, left) >= 0 else { throw .invalidParameters(processor: identifier, reason: "a negative width") }
            let size = PixelSize(width: image.width + left + right, height: image.height + top + bottom)
            guard max(size.width, size.height) <= 16_384 else {
                throw .invalidParameters(processor: identifier, reason: "the result would be \(size)")
            }
            let source = RGBABuffer(image)
            let fill: [UInt8] = color.map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? [0, 0, 0, 0]
            var pixels = Array([[UInt8]](repeating: fill, count: size.area).joined())
            for row in 0..<image.height {
                let from = row * image.width * 4, to = ((row + top) * size.width + left) * 4
                pixels.replaceSubrange(to..<to + image.width * 4, with: source.pixels[from..<from + image.width * 4])
            }
            let result = RGBABuffer(width: size.width, height: size.height, pixels: pixels)
            return result.image(like: image, keepAlpha: (color?.alpha ?? 0) < 255)
        }
    }
}
