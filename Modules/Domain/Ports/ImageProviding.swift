/// Gives an image for a request.
///
/// - important: A caller whose task is cancelled gets `CancellationError`; every other
///   failure is an ``ImagePipeline/Error``.
public protocol ImageProviding: Sendable {
    /// Loads, decodes and processes the image `request` describes.
    func image(for request: ImageRequest) async throws -> ImageResponse
}
