import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Squares of `size` pixels, from the top left corner, each filled with its average
    /// (the squares at the right and bottom edges may be cut short).
    public struct Pixelate: ImageProcessing, Hashable {
        public var size: Int

        /// Creates the processor; a size of 1 leaves the image as it is.
        public init(size: Int) { self.size = size }

        public var identifier: String { "pixelate(\(size))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard size >= 1 else { throw .invalidParameters(processor: identifier, reason: "the size must be at least 1") }
            guard size > 1 else { return image }
            let source = image.pixelFormat == .rgba8Premultiplied ? PixelConversion.unpremultiplied(image) : image
            let bpp = source.pixelFormat.bytesPerPixel
            var pixels = source.pixels
            for top in stride(from: 0, to: source.height, by: size) {
                for left in stride(from: 0, to: source.width, by: size) {
                    let rows = top..<min(top + size, source.height), columns = left..<min(left + size, source.width)
                    var sums = [Int](repeating: 0, count: bpp)
                    for y in rows { for x in columns { for c in 0..<bpp { sums[c] += Int(source.pixels[y * source.bytesPerRow + x * bpp + c]) } } }
                    let count = rows.count * columns.count
                    let average = sums.map { UInt8(($0 + count / 2) / count) }
                    for y in rows { for x in columns { for c in 0..<bpp { pixels[y * source.bytesPerRow + x * bpp + c] = average[c] } } }
                }
            }
            return try! Image(width: source.width, height: source.height, pixelFormat: source.pixelFormat,
                              bytesPerRow: source.bytesPerRow, pixels: pixels)
        }
    }
}
