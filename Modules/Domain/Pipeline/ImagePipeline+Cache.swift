import Foundation

extension ImagePipeline {
    /// The pipeline's caches, reached through the keys the pipeline makes for a request, so a
    /// caller never builds a key that could disagree with the pipeline's.
    ///
    /// ```swift
    /// if pipeline.cache.cachedImage(for: request) == nil { … }
    /// try await pipeline.cache.removeCachedImage(for: request)
    /// ```
    public struct Cache: Sendable {
        let pipeline: ImagePipeline

        /// The memory cache of processed images, if the pipeline has one.
        public var memory: (any ImageCaching)? { pipeline.configuration.imageCache }
        /// The data cache of encoded bytes (usually on disk), if the pipeline has one.
        public var disk: (any DataCaching)? { pipeline.configuration.dataCache }

        /// The processed image for `request` in memory, or `nil`.
        public func cachedImage(for request: ImageRequest) -> Image? {
            memory?.image(for: pipeline.keys(for: request).image)
        }

        /// Whether the data cache holds `request`'s original bytes or its processed variant.
        public func containsData(for request: ImageRequest) async -> Bool {
            await pipeline.hasDiskEntry(for: request)
        }

        /// Removes `request`'s processed image from memory and its bytes (original and this
        /// variant) from the data cache; other variants of the source stay.
        /// - Throws: the data cache's error; memory is cleared first in any case.
        public func removeCachedImage(for request: ImageRequest) async throws {
            let keys = pipeline.keys(for: request)
            memory?.removeImage(for: keys.image)
            try await disk?.removeData(for: keys.data)
            if keys.image != keys.data { try await disk?.removeData(for: keys.image) }
        }

        /// Removes every cached form of `request`'s source, every variant, in memory and on disk.
        public func removeAllVariants(of request: ImageRequest) async throws {
            try await pipeline.invalidate(request)
        }

        /// Empties the memory cache, the data cache, or both.
        public func removeAll(memory clearMemory: Bool = true, disk clearDisk: Bool = true) async throws {
            if clearMemory { memory?.removeAll() }
            if clearDisk { try await disk?.removeAll() }
        }
    }

    /// The pipeline's caches, by request.
    public var cache: Cache { Cache(pipeline: self) }
}
