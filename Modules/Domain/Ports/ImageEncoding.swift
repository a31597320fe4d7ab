import Foundation

/// Turns an ``Image`` into encoded bytes.
public protocol ImageEncoding: Sendable {
    /// Encodes `image` as `options` ask.
    /// - Throws: ``ImageEncodingError``.
    func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data
}
