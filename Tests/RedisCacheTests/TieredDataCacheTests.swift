import Foundation
import OspreyDomain
import OspreyRedisCache
import OspreyTesting
import Testing

/// A disk cache in front of Redis, as each instance of a fleet runs it.
@Suite("TieredDataCache over Redis")
struct TieredDataCacheTests {
    @Test func aSharedHitIsReportedAndCopiedToTheLocalCache() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let shared = try RedisDataCache(configuration: .init(url: server.url))
        let a = TieredDataCache(local: InMemoryDataCache(), shared: shared)
        let bLocal = InMemoryDataCache()
        let b = TieredDataCache(local: bLocal, shared: shared)
        let entry = CachedData(data: Data(repeating: 5, count: 4_000), metadata: CachedDataMetadata(format: .jpeg, etag: "\"e\""))
        let key = CacheKey(source: "https://example.com/a.jpg")

        try await a.store(entry, for: key)
        #expect(try await a.cachedData(for: key)?.tier == .disk)
        let first = try #require(try await b.cachedData(for: key))
        #expect(first.tier == .shared && first.data == entry.data && first.metadata == entry.metadata)
        #expect(try await bLocal.cachedData(for: key) == entry, "the shared hit was copied to b's own cache")
        #expect(try await b.cachedData(for: key)?.tier == .disk)

        try await b.removeData(forSource: key.source)
        #expect(try await a.cachedData(for: key)?.tier == .disk, "a's own copy stays; only what b and Redis held went")
        #expect(try await shared.cachedData(for: key) == nil)
    }

    @Test func withoutRedisReadsMissAndWritesStillReachTheLocalCache() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let shared = try RedisDataCache(configuration: .init(url: server.url))
        let local = InMemoryDataCache()
        let tiered = TieredDataCache(local: local, shared: shared)
        server.kill()
        let entry = CachedData(data: Data(repeating: 1, count: 100))
        #expect(try await tiered.cachedData(for: CacheKey(source: "x")) == nil)
        try await tiered.store(entry, for: CacheKey(source: "y"))
        #expect(try await tiered.cachedData(for: CacheKey(source: "y")) == entry)
        #expect(try await local.usage() == CacheUsage(cost: 100, count: 1))
    }
}
