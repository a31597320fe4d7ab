import OspreyDomain

/// An ``ImageProviding`` that answers from a table of images, after an optional delay.
/// Unknown requests fail with HTTP 404, as a pipeline would report them.
public struct FakeImageProvider: ImageProviding {
    /// Images by cache key.
    public var images: [CacheKey: Image]
    /// How long each answer takes.
    public var delay: Duration

    /// Creates a provider.
    public init(images: [CacheKey: Image], delay: Duration = .zero) {
        self.images = images
        self.delay = delay
    }

    public func image(for request: ImageRequest) async throws -> ImageResponse {
        let start = ContinuousClock.now
        if delay > .zero { try await Task.sleep(for: delay) }
        try Task.checkCancellation()
        guard let image = images[request.imageKey] else {
            throw ImagePipeline.Error.dataLoadingFailed(.httpStatus(404, url: request.source.cacheIdentifier))
        }
        return ImageResponse(image: image, tier: .memory, duration: .now - start)
    }
}
