import Foundation
import OspreyDomain
import OspreyMemoryCache
import OspreyContracts
import OspreyTesting
import Testing

@Suite("MemoryDataCache")
struct MemoryDataCacheTests {
    @Test("MemoryDataCache passes the DataCaching contract", arguments: DataCachingContract.Check.allCases)
    func contract(_ check: DataCachingContract.Check) async throws {
        try await DataCachingContract { limit in MemoryDataCache(costLimit: limit) }.run(check)
    }

    @Test func anEntryOverATenthOfTheLimitIsNotKept() async throws {
        let cache = MemoryDataCache(costLimit: 10_000)
        try await cache.store(CachedData(data: Data(count: 1_000)), for: CacheKey(source: "fits"))
        try await cache.store(CachedData(data: Data(count: 1_001)), for: CacheKey(source: "too big"))
        #expect(try await cache.containsData(for: CacheKey(source: "fits")))
        #expect(try await !cache.containsData(for: CacheKey(source: "too big")))
        #expect(try await cache.usage() == CacheUsage(cost: 1_000, count: 1))
    }
}
