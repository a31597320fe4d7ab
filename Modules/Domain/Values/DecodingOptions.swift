import Foundation

/// How to decode: the size that will be shown and how to fit it.
public struct DecodingOptions: Hashable, Sendable {
    /// The size that will be shown; `nil` decodes at full size. Never upscales.
    public var targetSize: PixelSize?
    /// How the image is scaled to ``targetSize``.
    public var contentMode: ContentMode
    /// Whether pixels are converted to sRGB through an embedded profile or kept as stored.
    public var colorHandling: ColorHandling
    /// The first frame of an animation, or every frame.
    public var frames: FrameSelection
    /// Which part a `fill` keeps when it crops to ``targetSize``.
    public var gravity: CropGravity
    /// Whether an EXIF orientation turns the pixels upright (the default) or they are kept
    /// as stored (imgproxy's `auto_rotate:0`). Orientation a format's own boxes give (HEIF's
    /// `irot`, JPEG XL's codestream) is part of the image and always applied.
    public var appliesOrientation = true
    /// Whether a source with more than 8 bits a sample decodes to a 16-bit format
    /// (``PixelFormat/rgb16`` and its kin), for an output that carries them (imgproxy's
    /// `preserve_hdr`); by default every image decodes to 8 bits. PNG keeps them.
    public var keepsHighBitDepth = false

    /// Creates options.
    public init(targetSize: PixelSize? = nil, contentMode: ContentMode = .fit,
                colorHandling: ColorHandling = .convertToSRGB, frames: FrameSelection = .first, gravity: CropGravity = .centre) {
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.colorHandling = colorHandling
        self.frames = frames
        self.gravity = gravity
    }

    /// The size an image of `original` size is scaled to under these options: inside the
    /// target for `fit`, covering it for `fill`; never larger than the original.
    public func outputSize(for original: PixelSize) -> PixelSize {
        guard let targetSize else { return original }
        return original.scaled(toFit: targetSize, mode: contentMode)
    }

    /// The size a decoder returns for an image of `original` size: ``outputSize(for:)`` for
    /// `fit`; for `fill`, exactly the target (the covering size cropped at ``gravity``),
    /// or less on a side where the original is smaller.
    public func resultSize(for original: PixelSize) -> PixelSize {
        let scaled = outputSize(for: original)
        guard contentMode == .fill, let targetSize else { return scaled }
        return scaled.clamped(to: targetSize)
    }
}
