import Foundation
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

/// The cache policies with a manual clock, including the seed's two.
@Suite("Cache policies")
struct PolicyTests {
    @Test("Every policy passes the CachePolicy contract", arguments: CachePolicyContract.Check.allCases)
    func contract(_ check: CachePolicyContract.Check) throws {
        for policy: any CachePolicy in [BatchEvictionPolicy(threshold: 50, batchSize: 10), IdlePurgePolicy(maximumIdle: 86_400),
                                        CompositeCachePolicy(BatchEvictionPolicy(threshold: 50, batchSize: 10), ExpiryPolicy(.sinceCreation(3_600)))] {
            try CachePolicyContract(policy: policy).run(check)
        }
    }

    static func entries(_ count: Int, clock: ManualClock) -> [CacheEntryInfo] {
        (0..<count).map { i in
            let t = clock.now.addingTimeInterval(Double(i - count))
            return CacheEntryInfo(key: CacheKey(source: "\(i)"), cost: 100, createdAt: t, lastAccessAt: t)
        }
    }

    @Test func seedBatchEvictionDropsTheTenLeastUsedOncePastFifty() {
        let clock = ManualClock()
        let policy = BatchEvictionPolicy(threshold: 50, batchSize: 10)
        #expect(policy.victims(lruOrdered: Self.entries(50, clock: clock), now: clock.now).isEmpty, "50 files are fine")
        let victims = policy.victims(lruOrdered: Self.entries(50, clock: clock), incoming: CacheUsage(cost: 100, count: 1), now: clock.now)
        #expect(victims == (0..<10).map { CacheKey(source: "\($0)") }, "the 51st file evicts the 10 least used")
    }

    @Test func seedIdlePurgeClearsACacheUnopenedForADay() {
        let clock = ManualClock()
        let policy = IdlePurgePolicy(maximumIdle: 24 * 3600)
        let lastOpened = clock.now
        clock.advance(by: 24 * 3600)
        #expect(!policy.shouldPurgeAll(lastOpened: lastOpened, now: clock.now))
        clock.advance(by: 1)
        #expect(policy.shouldPurgeAll(lastOpened: lastOpened, now: clock.now))
    }

    @Test func expirySinceCreationIgnoresReads() {
        let clock = ManualClock()
        let created = clock.now
        clock.advance(by: 3_000)
        let entry = CacheEntryInfo(key: CacheKey(source: "a"), cost: 1, createdAt: created, lastAccessAt: clock.now)
        #expect(!ExpiryPolicy(.sinceCreation(3_600)).isExpired(entry, now: clock.now))
        clock.advance(by: 600)
        #expect(ExpiryPolicy(.sinceCreation(3_600)).isExpired(entry, now: clock.now))
        #expect(!ExpiryPolicy(.sinceLastAccess(3_600)).isExpired(entry, now: clock.now))
    }

    @Test func sizeAndCountLRUTrimToSeventyPercent() {
        let clock = ManualClock()
        let policy = LRULimitPolicy(costLimit: 5_000, countLimit: 1_000, trimRatio: 0.7)
        let victims = policy.victims(lruOrdered: Self.entries(50, clock: clock), incoming: CacheUsage(cost: 100, count: 1), now: clock.now)
        #expect(victims.count == 16, "5100 bytes down to 3500: the 16 oldest go")
        let byCount = LRULimitPolicy(countLimit: 40, trimRatio: 0.7)
        #expect(byCount.victims(lruOrdered: Self.entries(40, clock: clock), incoming: CacheUsage(cost: 1, count: 1), now: clock.now).count == 13)
    }

    @Test func compositeTakesTheStrictestTargetAndAnyExpiry() {
        let clock = ManualClock()
        let policy = CompositeCachePolicy(LRULimitPolicy(costLimit: 4_000), BatchEvictionPolicy(threshold: 30, batchSize: 10), ExpiryPolicy(.sinceLastAccess(45)))
        let victims = policy.victims(lruOrdered: Self.entries(50, clock: clock), now: clock.now)
        // 5 entries are 45 s old or more; then 45 left: the batch rule wants 30, the size rule 40.
        #expect(victims.count == 5 + 15)
    }
}
