import Foundation

extension ImagePipeline {
    /// The placeholder of `request`'s image (its average colour, BlurHash and ThumbHash), for an
    /// app to show while the image loads, as Nuke's and Kingfisher's users show a blurred one.
    /// Made from ``ImagePipeline/previewImage(for:fitting:)`` at 100 × 100: a camera's
    /// embedded thumbnail or a progressive JPEG's first scans where there are, a reduction the
    /// pipeline keeps, else a reduced decode; the request's processors are dropped.
    public func placeholder(for request: ImageRequest, blurHashComponents: (x: Int, y: Int) = (4, 3)) async throws -> ImagePlaceholder {
        let image = try await previewImage(for: request, fitting: PixelSize(width: 100, height: 100))
        return ImagePlaceholder(image, blurHashComponents: blurHashComponents)
    }
}
