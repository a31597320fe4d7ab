import Foundation
import OspreyDomain

// /info answers kept as encoded images are: in the pipeline's memory data cache and on disk,
// under the source's data key with the options, while the source is fresh.
extension ImageService {
    /// The key an /info answer of `options` for `request`'s source is kept under.
    package func infoKey(_ request: ImageRequest, _ options: ImgproxyInfoRequest.Options) -> CacheKey {
        CacheKey(source: pipeline.keys(for: request).data.source, variant: options.cacheVariant)
    }

    /// A kept answer's JSON and its source's freshness; memory first, then disk (which fills
    /// memory). A failing cache is a miss.
    func keptInfo(_ key: CacheKey) async -> CachedData? {
        let caches = pipeline.configuration
        for (index, cache) in [caches.memoryDataCache, caches.dataCache].enumerated() {
            guard let cache, let kept = try? await cache.cachedData(for: key),
                  !kept.metadata.isStale(at: caches.clock.now) else { continue }
            if index == 1, let memory = caches.memoryDataCache { try? await memory.store(kept, for: key) }
            return kept
        }
        return nil
    }

    /// Keeps `body` under `key` in memory and on disk, fresh while the source is.
    func keepInfo(_ body: Data, under key: CacheKey, freshUntil: Date?) async {
        var metadata = CachedDataMetadata()
        metadata.freshUntil = freshUntil
        let entry = CachedData(data: body, metadata: metadata)
        let caches = pipeline.configuration
        for cache in [caches.memoryDataCache, caches.dataCache].compactMap({ $0 }) {
            do {
                try await cache.store(entry, for: key)
            } catch {
                caches.logger.warning("info answer cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }
}
