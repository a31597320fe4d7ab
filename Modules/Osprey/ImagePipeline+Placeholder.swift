import Foundation

extension ImagePipeline {
    /// The placeholder of `request`'s image (its average colour, BlurHash and ThumbHash), for an
    /// app to show while the image loads, as Nuke's and Kingfisher's users show a blurred one.
    /// The image is asked at 100 × 100 at most, which a JPEG decodes at a reduced scale and
    /// the pipeline serves from a reduction it keeps; the request's processors are dropped.
    public func placeholder(for request: ImageRequest, blurHashComponents: (x: Int, y: Int) = (4, 3)) async throws -> ImagePlaceholder {
        var small = request
        small.targetSize = PixelSize(width: 100, height: 100)
        small.contentMode = .fit
        small.processors = []
        small.frames = .first
        let image = try await image(for: small).image
        return ImagePlaceholder(image, blurHashComponents: blurHashComponents)
    }
}
