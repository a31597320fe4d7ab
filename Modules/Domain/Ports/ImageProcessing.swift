/// Transforms one ``Image`` into another.
///
/// - important: ``identifier`` enters the cache key, so it must be stable across runs and
///   processes and must differ whenever the output would (include every parameter).
public protocol ImageProcessing: Sendable {
    /// A stable identifier that names the processor and its parameters, such as `blur(4)`.
    var identifier: String { get }
    /// Returns the processed image.
    ///
    /// Long work checks `Task.isCancelled` every few rows and throws
    /// ``ImageProcessingError/cancelled`` once it is set: the pipeline runs processors inside
    /// the caller's task, so a request that is given up stops using its thread.
    /// - Throws: ``ImageProcessingError``.
    func process(_ image: Image) throws(ImageProcessingError) -> Image
    /// The size ``process(_:)`` returns for an image of `input` size, or a bound on it,
    /// worked out without pixels: the pipeline checks the result against its limit
    /// (``ImagePipeline/Configuration/maxResultPixels``) before any processor runs. The
    /// default is `input`: a processor that makes an image larger must say by how much.
    func outputSize(for input: PixelSize) -> PixelSize
    /// Whether ``process(_:)`` takes 16-bit images (``PixelFormat/isHighBitDepth``) as they are,
    /// as moving pixels does; the pipeline narrows an image to 8 bits before a chain holding any
    /// processor that does not. The default is `false`.
    var keepsHighBitDepth: Bool { get }
}

extension ImageProcessing {
    public func outputSize(for input: PixelSize) -> PixelSize { input }
    public var keepsHighBitDepth: Bool { false }
}
