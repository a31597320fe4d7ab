import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Scales to a size with the Lanczos-3 resampler, keeping the aspect ratio.
    ///
    /// `fit` makes the largest image inside `size`; `fill` the smallest that covers it,
    /// then crops the centre to exactly `size` when `crop` is on (the default). Never
    /// upscales: an image smaller than `size` is returned as it is (or only cropped).
    public struct Resize: ImageProcessing, Hashable {
        public var size: PixelSize
        public var contentMode: ContentMode
        public var crop: Bool

        /// Creates a resize processor.
        public init(size: PixelSize, contentMode: ContentMode = .fit, crop: Bool = true) {
            self.size = size
            self.contentMode = contentMode
            self.crop = crop
        }

        /// A side no image reaches, for a resize that constrains only the other side.
        static let unbounded = 1 << 30

        public var identifier: String {
            if size.height == Self.unbounded { return "resize(w=\(size.width))" }
            if size.width == Self.unbounded { return "resize(h=\(size.height))" }
            return "resize(\(size),\(contentMode.rawValue)\(contentMode == .fill && !crop ? ",nocrop" : ""))"
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard !size.isEmpty else { throw .invalidParameters(processor: identifier, reason: "the size must be positive") }
            let scaled = Resampler.resize(image, to: image.size.scaled(toFit: size, mode: contentMode))
            return contentMode == .fill && crop ? CentreCrop.crop(scaled, to: size) : scaled
        }
    }
}
