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
}
