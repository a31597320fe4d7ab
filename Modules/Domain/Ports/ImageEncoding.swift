import Foundation

/// Turns an ``Image`` into encoded bytes.
public protocol ImageEncoding: Sendable {
    /// The formats this encoder writes, and what it can carry in each.
    var capabilities: [EncoderCapabilities] { get }
    /// Encodes `image` as `options` ask.
    /// - Throws: ``ImageEncodingError``.
    func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data
    /// The bytes encoding `image` as `format` holds besides the image, for a
    /// ``MemoryBudget``; by default the image's own size (what the encoded bytes and the
    /// encoder's buffers come to at most for most formats).
    func encodeEstimate(of image: Image, as format: ImageFormat) -> Int
}

extension ImageEncoding {
    public func encodeEstimate(of image: Image, as format: ImageFormat) -> Int {
        image.cost
    }

    /// What this encoder writes in `format`; `nil` when it does not write it.
    public func capabilities(for format: ImageFormat) -> EncoderCapabilities? {
        capabilities.first { $0.format == format }
    }
}
