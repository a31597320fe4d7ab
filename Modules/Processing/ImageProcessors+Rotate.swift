import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Turns the image clockwise by a multiple of 90°, as imgproxy's `rotate`.
    public struct Rotate: ImageProcessing, Hashable {
        /// Quarter turns clockwise, 0…3.
        public let quarterTurns: Int

        /// Turns clockwise by `quarterTurns` × 90° (negative turns anticlockwise).
        public init(quarterTurns: Int) {
            self.quarterTurns = (quarterTurns % 4 + 4) % 4
        }

        public var identifier: String { "rotate(\(quarterTurns * 90))" }

        public var keepsHighBitDepth: Bool { true }

        public func outputSize(for input: PixelSize) -> PixelSize {
            quarterTurns % 2 == 0 ? input : PixelSize(width: input.height, height: input.width)
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            // The EXIF orientations that a clockwise turn of this many quarters puts upright.
            let turn: [Orientation] = [.up, .right, .down, .left]
            return turn[quarterTurns].applied(to: image)
        }
    }
}
