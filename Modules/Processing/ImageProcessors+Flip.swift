import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Mirrors the image left to right, top to bottom or both, as imgproxy's `flip`.
    public struct Flip: ImageProcessing, Hashable {
        /// Left and right exchanged.
        public let horizontal: Bool
        /// Top and bottom exchanged.
        public let vertical: Bool

        /// Mirrors across (`horizontal`), down (`vertical`) or both.
        public init(horizontal: Bool, vertical: Bool) {
            (self.horizontal, self.vertical) = (horizontal, vertical)
        }

        public var identifier: String { "flip(\(horizontal ? "h" : "")\(vertical ? "v" : ""))" }

        public func outputSize(for input: PixelSize) -> PixelSize { input }

        public var keepsHighBitDepth: Bool { true }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            // The EXIF orientations that are these mirrors; both at once is a half turn.
            let mirror: Orientation = switch (horizontal, vertical) {
            case (true, true): .down
            case (true, false): .upMirrored
            case (false, true): .downMirrored
            case (false, false): .up
            }
            return mirror.applied(to: image)
        }
    }
}
