import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Scales to a size with the Lanczos-3 resampler, keeping the aspect ratio.
    ///
    /// `fit` makes the largest image inside `size`; `fill` the smallest that covers it,
    /// then crops it to exactly `size` when `crop` is on (the default), keeping the part
    /// `gravity` picks: the centre, a point, or the most interesting window (smart crop).
    /// Never upscales: an image smaller than `size` is returned as it is (or only cropped).
    public struct Resize: ImageProcessing, Hashable {
        public var size: PixelSize
        public var contentMode: ContentMode
        public var crop: Bool
        public var gravity: CropGravity

        /// Creates a resize processor.
        public init(size: PixelSize, contentMode: ContentMode = .fit, crop: Bool = true, gravity: CropGravity = .centre) {
            self.size = size
            self.contentMode = contentMode
            self.crop = crop
            self.gravity = gravity
        }

        /// A side no image reaches, for a resize that constrains only the other side.
        static let unbounded = 1 << 30

        public var identifier: String {
            if size.height == Self.unbounded { return "resize(w=\(size.width))" }
            if size.width == Self.unbounded { return "resize(h=\(size.height))" }
            let cropping = contentMode == .fill && !crop ? ",nocrop" : contentMode == .fill && gravity != .centre ? ",\(gravity.identifier)" : ""
            return "resize(\(size),\(contentMode.rawValue)\(cropping))"
        }

        public var keepsHighBitDepth: Bool { true }

        public func outputSize(for input: PixelSize) -> PixelSize {
            guard !size.isEmpty else { return input }
            let scaled = input.scaled(toFit: size, mode: contentMode)
            return contentMode == .fill && crop ? PixelSize(width: min(scaled.width, size.width), height: min(scaled.height, size.height)) : scaled
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard !size.isEmpty else { throw .invalidParameters(processor: identifier, reason: "the size must be positive") }
            let scaled = Resampler.resize(image, to: image.size.scaled(toFit: size, mode: contentMode))
            try ImageProcessingError.checkCancellation()  // the resampler stops early when cancelled
            return contentMode == .fill && crop ? GravityCrop.crop(scaled, to: size, gravity: gravity) : scaled
        }
    }
}
