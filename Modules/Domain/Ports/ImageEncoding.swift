import Foundation

/// Turns an ``Image`` into encoded bytes.
public protocol ImageEncoding: Sendable {
    /// The formats this encoder writes, and what it can carry in each.
    var capabilities: [EncoderCapabilities] { get }
    /// Encodes `image` as `options` ask.
    /// - Throws: ``ImageEncodingError``.
    func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data
}

extension ImageEncoding {
    /// What this encoder writes in `format`; `nil` when it does not write it.
    public func capabilities(for format: ImageFormat) -> EncoderCapabilities? {
        capabilities.first { $0.format == format }
    }
}
