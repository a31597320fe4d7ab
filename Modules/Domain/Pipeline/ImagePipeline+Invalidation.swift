import Foundation

extension ImagePipeline {
    /// Removes every cached form of `source` — the original bytes and every processed
    /// variant, in memory and on disk — so the next request loads it again.
    ///
    /// `source` is normalised as cache keys are, so a signed URL invalidates the image
    /// whatever its tokens.
    /// - Throws: the disk cache's error; memory is cleared first in any case.
    public func invalidate(_ source: ImageSource) async throws {
        let identifier = source.cacheIdentifier(normalizing: configuration.urlNormalization)
        configuration.imageCache?.removeImages(forSource: identifier)
        try await configuration.dataCache?.removeData(forSource: identifier)
    }

    /// Removes every cached form of the request's source, or of its custom cache key.
    public func invalidate(_ request: ImageRequest) async throws {
        let source = keys(for: request).data.source
        configuration.imageCache?.removeImages(forSource: source)
        try await configuration.dataCache?.removeData(forSource: source)
    }
}
