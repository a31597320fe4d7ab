/// Transforms one ``Image`` into another.
///
/// - important: ``identifier`` enters the cache key, so it must be stable across runs and
///   processes and must differ whenever the output would (include every parameter).
public protocol ImageProcessing: Sendable {
    /// A stable identifier that names the processor and its parameters, such as `blur(4)`.
    var identifier: String { get }
    /// Returns the processed image.
    /// - Throws: ``ImageProcessingError``.
    func process(_ image: Image) throws(ImageProcessingError) -> Image
}
