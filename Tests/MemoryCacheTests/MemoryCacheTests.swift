import Foundation
import OspreyDomain
import OspreyMemoryCache
import OspreyContracts
import OspreyTesting
import Testing

@Suite("MemoryCache")
struct MemoryCacheTests {
    @Test("MemoryCache passes the ImageCaching contract", arguments: ImageCachingContract.Check.allCases)
    func contract(_ check: ImageCachingContract.Check) async throws {
        try await ImageCachingContract { cost, count in MemoryCache(costLimit: cost, countLimit: count) }.run(check)
    }

    static func image(_ side: Int = 10) -> Image { TestImages.solid(PixelSize(width: side, height: side)) }  // side² × 4 bytes

    @Test func anEntryOverItsShareOfTheLimitIsNotKept() {
        let cache = MemoryCache(costLimit: 4_000)  // 10% = 400 bytes: one 10x10 image
        cache.store(Self.image(10), for: CacheKey(source: "fits"))
        cache.store(Self.image(11), for: CacheKey(source: "too big"))
        #expect(cache.image(for: CacheKey(source: "fits")) != nil)
        #expect(cache.image(for: CacheKey(source: "too big")) == nil)
    }

    @Test func entriesExpireSinceLastAccessWithAManualClock() {
        let clock = ManualClock()
        let cache = MemoryCache(configuration: .init(costLimit: 1 << 20, timeToLive: 300), clock: clock)
        let key = CacheKey(source: "a")
        cache.store(Self.image(), for: key)
        clock.advance(by: 299)
        #expect(cache.image(for: key) != nil, "read at 299 s, which renews it")
        clock.advance(by: 299)
        #expect(cache.image(for: key) != nil, "299 s after the last read")
        clock.advance(by: 300)
        #expect(cache.image(for: key) == nil)
        #expect(cache.usage == .zero)
    }

    @Test func neverExpiringEntriesStay() {
        let clock = ManualClock()
        let cache = MemoryCache(configuration: .init(costLimit: 1 << 20, timeToLive: nil), clock: clock)
        cache.store(Self.image(), for: CacheKey(source: "a"))
        clock.advance(by: 1e9)
        #expect(cache.image(for: CacheKey(source: "a")) != nil)
    }

    @Test func expiredEntriesAreSweptOnWrite() {
        let clock = ManualClock()
        let cache = MemoryCache(configuration: .init(costLimit: 1 << 20, timeToLive: 60), clock: clock)
        for i in 0..<5 { cache.store(Self.image(), for: CacheKey(source: "old\(i)")) }
        clock.advance(by: 61)
        cache.store(Self.image(), for: CacheKey(source: "new"))
        #expect(cache.usage.count == 1)
        #expect(cache.statistics.evictions == 5)
    }

    @Test func trimToCostDropsTheLeastRecentlyUsed() {
        let cache = MemoryCache(costLimit: 1 << 20)
        for i in 0..<10 { cache.store(Self.image(), for: CacheKey(source: "\(i)")) }
        _ = cache.image(for: CacheKey(source: "0"))
        cache.trim(toCost: 1_200)
        #expect(cache.usage == CacheUsage(cost: 1_200, count: 3))
        #expect(cache.image(for: CacheKey(source: "0")) != nil && cache.image(for: CacheKey(source: "9")) != nil)
        cache.trim(toCost: 0)
        #expect(cache.usage == .zero)
    }

    @Test func countersCountHitsMissesAndEvictions() {
        let cache = MemoryCache(costLimit: 1_000_000, countLimit: 2)
        for i in 0..<3 { cache.store(Self.image(), for: CacheKey(source: "\(i)")) }
        _ = cache.image(for: CacheKey(source: "2"))
        _ = cache.image(for: CacheKey(source: "0"))
        #expect(cache.statistics == MemoryCache.Statistics(hits: 1, misses: 1, evictions: 1))
    }

    @Test func defaultLimitIsTheLesserOf512MBAnd20PercentOfMemory() {
        let physical = Int(ProcessInfo.processInfo.physicalMemory)
        #expect(MemoryCache.Configuration.defaultCostLimit == min(512 << 20, physical / 5))
        #expect(MemoryCache.Configuration().timeToLive == 300)
    }
}
