/// Encoded bytes plus metadata, by key, usually on disk.
///
/// Asynchronous so that a remote store (a shared cache on Redis, an object store) can
/// implement it without blocking a thread.
public protocol DataCaching: Sendable {
    /// The entry under `key`, counting as an access; `nil` on a miss.
    func cachedData(for key: CacheKey) async throws -> CachedData?
    /// Stores `entry` under `key`, replacing what was there and evicting as the limits require.
    /// - Throws: ``DataCacheError``; a failed store leaves what was cached before intact.
    func store(_ entry: CachedData, for key: CacheKey) async throws
    /// Replaces the metadata of the entry under `key` and keeps its bytes (after a `304`).
    /// Does nothing when there is no such entry.
    func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws
    /// Removes the entry under `key`, if any.
    func removeData(for key: CacheKey) async throws
    /// Removes every entry of `source`: its original bytes and every stored variant.
    func removeData(forSource source: String) async throws
    /// Removes every entry.
    func removeAll() async throws
    /// What the cache holds now.
    func usage() async throws -> CacheUsage
}

extension DataCaching {
    /// `true` when an entry is stored under `key`.
    public func containsData(for key: CacheKey) async throws -> Bool {
        try await cachedData(for: key) != nil
    }
}
