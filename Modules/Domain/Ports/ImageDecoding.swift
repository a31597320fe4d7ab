import Foundation

/// Turns encoded bytes into an ``Image``, at the size that will be shown.
///
/// Decoding is synchronous CPU work; callers run it off any coordinating actor.
public protocol ImageDecoding: Sendable {
    /// Decodes `input`. With a target size, the result is ``DecodingOptions/resultSize(for:)``:
    /// inside the target for `fit`, exactly the target for `fill`, never larger than the original.
    /// - Throws: ``ImageDecodingError``.
    func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image

    /// The format of the input that starts with `prefix` (its first bytes; 64 are enough),
    /// judged by magic bytes alone.
    /// - Throws: ``ImageDecodingError/notAnImage(prefix:)`` when the bytes are no image, or
    ///   ``ImageDecodingError/unsupportedFormat(_:detail:)`` when this decoder cannot decode it.
    func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat

    /// A decode of `input` that costs less than a full one and is at least as large as what
    /// `options` asks for, such as a JPEG's DCT-scaled decode: the pipeline keeps it in
    /// memory and makes later sizes of the same source from it with ``rescale(_:options:)``.
    /// Upright and colour-handled as ``decode(_:options:)`` returns images. `nil` (the
    /// default) when the format has no such decode; the pipeline then decodes as usual.
    func decodeReduction(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image?

    /// What ``decode(_:options:)`` would return for `options`, made from a reduction that
    /// ``decodeReduction(_:options:)`` returned; `nil` (the default) when not supported.
    func rescale(_ reduction: Image, options: DecodingOptions) -> Image?

    /// An approximate decode for a placeholder, much cheaper than ``decode(_:options:)`` and at
    /// least as large as `options` asks: from the thumbnail a camera embeds, or from a
    /// progressive file's first scans. `nil` (the default) when the input has nothing cheaper.
    func decodePreview(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image?

    /// The size ``decode(_:options:)`` returns for `options` without a target size, read from
    /// the header alone; `nil` (the default) when it cannot be known without decoding.
    func sourceSize(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> PixelSize?

    /// What ``decode(_:options:)`` will hold for `options`, read from the header alone, so a
    /// ``MemoryBudget`` can admit the work before it starts; `nil` (the default) when it cannot
    /// be known without decoding.
    func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate?
}

extension ImageDecoding {
    public func decodeReduction(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? { nil }

    public func rescale(_ reduction: Image, options: DecodingOptions) -> Image? { nil }

    public func decodePreview(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? { nil }

    public func sourceSize(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> PixelSize? { nil }

    public func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate? { nil }
}
