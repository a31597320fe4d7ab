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

        public func outputSize(for input: PixelSize) -> PixelSize {
            PixelSize(width: input.width + max(0, left) + max(0, right), height: input.height + max(0, top) + max(0, bottom))
        }

        /// - Throws: `ImageProcessingError/invalidParameters(processor:reason:)` for a negative
        ///   width or a result larger than 16384 pixels a side.
        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard min(top, right, bottom, left) >= 0 else { throw .invalidParameters(processor: identifier, reason: "a negative width") }
            let size = outputSize(for: image.size)
            guard max(size.width, size.height) <= 16_384 else {
                throw .invalidParameters(processor: identifier, reason: "the result would be \(size)")
            }
            let source = RGBABuffer(image)
            let rowBytes = size.width * 4, imageRowBytes = image.width * 4
            // The canvas is filled row by row: a transparent one is the zeroed allocation itself.
            let fill: [UInt8] = color.map { [$0.red, $0.green, $0.blue, $0.alpha] } ?? [0, 0, 0, 0]
            let fillRow: [UInt8]? = fill == [0, 0, 0, 0] ? nil : Array([[UInt8]](repeating: fill, count: size.width).joined())
            var pixels = [UInt8](repeating: 0, count: size.byteCount(bytesPerPixel: 4))
            try pixels.withUnsafeMutableBufferPointer { (out: inout UnsafeMutableBufferPointer<UInt8>) throws(ImageProcessingError) in
                for y in 0..<size.height {
                    if y & 63 == 0 { try ImageProcessingError.checkCancellation() }
                    let row = out.baseAddress! + y * rowBytes
                    fillRow?.withUnsafeBufferPointer { row.update(from: $0.baseAddress!, count: rowBytes) }
                    guard (top..<top + image.height).contains(y) else { continue }
                    source.pixels.withUnsafeBufferPointer { from in
                        (row + left * 4).update(from: from.baseAddress! + (y - top) * imageRowBytes, count: imageRowBytes)
                    }
                }
            }
            let result = RGBABuffer(width: size.width, height: size.height, pixels: pixels)
            return result.image(like: image, keepAlpha: (color?.alpha ?? 0) < 255)
        }
    }
}
