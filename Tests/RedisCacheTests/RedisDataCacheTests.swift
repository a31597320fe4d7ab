import Foundation
import OspreyDomain
import OspreyRedisCache
import OspreyContracts
import OspreyTesting
import Testing

/// `RedisDataCache` against a real `redis-server` the suite starts on loopback.
@Suite("RedisDataCache", .serialized)
struct RedisDataCacheTests {
    /// One Redis for the contract: each check gets a key prefix of its own.
    static let server = Result { try RedisServer() }

    static func cache(on server: RedisServer, sizeLimit: Int = .max, _ change: (inout RedisDataCache.Configuration) -> Void = { _ in })
        throws -> RedisDataCache {
        var configuration = try RedisDataCache.Configuration(url: server.url)
        configuration.keyPrefix = "test-\(UUID().uuidString):"
        configuration.sizeLimit = sizeLimit
        change(&configuration)
        return RedisDataCache(configuration: configuration)
    }

    @Test("RedisDataCache passes the DataCaching contract", arguments: DataCachingContract.Check.allCases)
    func contract(_ check: DataCachingContract.Check) async throws {
        let server = try Self.server.get()
        try await DataCachingContract { limit in try Self.cache(on: server, sizeLimit: limit) }.run(check)
    }

    @Test func redisURLsParseAndOthersAreTypedErrors() throws {
        let configuration = try RedisDataCache.Configuration(url: "redis://10.0.0.5:6380/3")
        #expect(configuration.host == "10.0.0.5" && configuration.port == 6380 && configuration.database == 3)
        #expect(try RedisDataCache.Configuration(url: "redis://cache.internal").port == 6379)
        for bad in ["http://10.0.0.5:6379", "redis://", "redis://host:6379/x", "10.0.0.5:6379"] {
            #expect(throws: RedisURLError.self, "\(bad)") { try RedisDataCache.Configuration(url: bad) }
        }
    }

    @Test func entriesTakeTheirTTLFromTheExpiryRuleAndUsageSweepsThem() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let cache = try Self.cache(on: server) { $0.expiry = .sinceCreation(0.3) }
        try await cache.store(CachedData(data: Data(repeating: 1, count: 500)), for: CacheKey(source: "a"))
        #expect(try await cache.usage() == CacheUsage(cost: 500, count: 1))
        try await Task.sleep(for: .milliseconds(700))
        #expect(try await cache.cachedData(for: CacheKey(source: "a")) == nil)
        try await cache.store(CachedData(data: Data(repeating: 2, count: 300)), for: CacheKey(source: "b"))
        try await Task.sleep(for: .milliseconds(700))
        #expect(try await cache.usage() == .zero, "an entry Redis expired leaves no bookkeeping behind")
    }

    @Test func anEntryOverTheSizeCapIsRefusedAndNothingElseIsLost() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let cache = try Self.cache(on: server) { $0.maxEntrySize = 1_000 }
        let kept = CachedData(data: Data(repeating: 7, count: 1_000), metadata: CachedDataMetadata(format: .png))
        try await cache.store(kept, for: CacheKey(source: "kept"))
        await #expect(throws: DataCacheError.entryTooLarge(size: 1_001, limit: 1_000)) {
            try await cache.store(CachedData(data: Data(repeating: 8, count: 1_001)), for: CacheKey(source: "big"))
        }
        #expect(try await cache.cachedData(for: CacheKey(source: "kept")) == kept)
    }

    @Test func twoProcessesWorthOfCachesShareOneLRUAndOneLimit() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let prefix = "fleet:"
        let a = try Self.cache(on: server, sizeLimit: 3_000) { $0.keyPrefix = prefix }
        let b = try Self.cache(on: server, sizeLimit: 3_000) { $0.keyPrefix = prefix }
        for i in 0..<3 { try await a.store(CachedData(data: Data(repeating: UInt8(i), count: 1_000)), for: CacheKey(source: "\(i)")) }
        #expect(try await b.containsData(for: CacheKey(source: "0")), "b reads what a wrote, and that counts as a use")
        try await b.store(CachedData(data: Data(repeating: 9, count: 1_000)), for: CacheKey(source: "3"))
        #expect(try await a.containsData(for: CacheKey(source: "0")))
        #expect(try await !a.containsData(for: CacheKey(source: "1")), "the least recently used across both went")
        #expect(try await a.usage() == CacheUsage(cost: 3_000, count: 3))
    }

    @Test func aStoppedRedisFailsFastWithATypedErrorAndIsUsedAgainWhenItReturns() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let retry = Duration.seconds(1)
        let cache = try Self.cache(on: server) { $0.retryInterval = retry }
        let entry = CachedData(data: Data(repeating: 3, count: 2_000))
        try await cache.store(entry, for: CacheKey(source: "a"))
        server.stop()

        var started = ContinuousClock.now
        await #expect(throws: DataCacheError.self) { try await cache.cachedData(for: CacheKey(source: "a")) }
        let firstFailure = ContinuousClock.now - started
        #expect(cache.isUnavailable)
        started = ContinuousClock.now
        await #expect(throws: DataCacheError.self) { try await cache.store(entry, for: CacheKey(source: "b")) }
        let whileDown = ContinuousClock.now - started
        print("redis stopped: first failure after \(firstFailure), then \(whileDown) while marked down")
        #expect(firstFailure < Sanitizer.scaled(.seconds(1)))
        // Marked down, a command fails at once: well within the wait before the next attempt.
        #expect(whileDown < retry, "no connection is attempted while marked down")

        try server.restart()
        try await Task.sleep(for: retry + .milliseconds(100))
        try await cache.store(entry, for: CacheKey(source: "b"))
        #expect(try await cache.cachedData(for: CacheKey(source: "b")) == entry, "the cache reconnected by itself")
        #expect(!cache.isUnavailable)
    }

    @Test func aRedisThatStopsAnsweringCostsOneTimeoutThenNothing() async throws {
        let server = try RedisServer()
        defer { withExtendedLifetime(server) {} }
        let cache = try Self.cache(on: server) {
            $0.commandTimeout = .milliseconds(200)
            $0.retryInterval = .milliseconds(500)
        }
        try await cache.store(CachedData(data: Data(repeating: 1, count: 100)), for: CacheKey(source: "a"))
        server.pause()
        defer { server.resume() }
        var started = ContinuousClock.now
        await #expect(throws: DataCacheError.self) { try await cache.cachedData(for: CacheKey(source: "a")) }
        let timedOut = ContinuousClock.now - started
        started = ContinuousClock.now
        for _ in 0..<20 {
            await #expect(throws: DataCacheError.self) { try await cache.cachedData(for: CacheKey(source: "a")) }
        }
        let twentyMore = ContinuousClock.now - started
        print("redis paused: \(timedOut) for the request that timed out, \(twentyMore) for 20 more")
        #expect(timedOut >= .milliseconds(150) && timedOut < Sanitizer.scaled(.seconds(2)))
        #expect(twentyMore < timedOut, "twenty failures while marked down take less than the one that waited its timeout")

        server.resume()
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await cache.cachedData(for: CacheKey(source: "a"))?.data == Data(repeating: 1, count: 100))
    }
}
