import Foundation
import OspreyDomain
import OspreyTesting
import Testing

/// The behaviour every ``CachePolicy`` must show, checked over a grid of entry ages and
/// cache usages with a ``ManualClock``.
public struct CachePolicyContract: Sendable {
    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case expiryNeverReverts, freshlyUsedEntryIsKept, evictionTargetNeverGrowsTheCache,
             shrinkingToTheTargetEndsEviction, victimsAreExpiredThenLeastRecentlyUsed
    }

    private let policy: any CachePolicy

    /// Creates the contract for `policy`.
    public init(policy: any CachePolicy) { self.policy = policy }

    static let ages: [TimeInterval] = [0, 1, 59, 60, 3_599, 3_600, 86_399, 86_400, 604_800, 3_000_000]
    static let usages: [CacheUsage] = [0, 1, 10, 49, 50, 51, 60, 1_000, 100_000].flatMap { count in
        [0, 1_000, 1 << 20, 300 << 20, 1 << 40].map { CacheUsage(cost: $0, count: count) }
    }

    /// Runs one check.
    public func run(_ check: Check) throws {
        let clock = ManualClock()
        let start = clock.now
        switch check {
        case .expiryNeverReverts:
            for createdAge in Self.ages {
                for accessAge in Self.ages where accessAge <= createdAge {
                    let entry = CacheEntryInfo(key: CacheKey(source: "k"), cost: 1,
                                               createdAt: start.addingTimeInterval(-createdAge),
                                               lastAccessAt: start.addingTimeInterval(-accessAge))
                    var expired = false
                    for step in Self.ages {
                        let now = start.addingTimeInterval(step)
                        let isExpired = policy.isExpired(entry, now: now)
                        #expect(!(expired && !isExpired), "expired entry came back at +\(step)s")
                        expired = expired || isExpired
                    }
                }
            }
        case .freshlyUsedEntryIsKept:
            let entry = CacheEntryInfo(key: CacheKey(source: "k"), cost: 1, createdAt: start, lastAccessAt: start)
            #expect(!policy.isExpired(entry, now: start))
        case .evictionTargetNeverGrowsTheCache:
            for usage in Self.usages {
                guard let target = policy.evictionTarget(for: usage) else { continue }
                #expect(target.cost <= usage.cost && target.count <= usage.count, "\(usage) → \(target)")
                #expect(!usage.fits(within: target), "a target is set only when something must go: \(usage) → \(target)")
            }
        case .shrinkingToTheTargetEndsEviction:
            for usage in Self.usages {
                guard let target = policy.evictionTarget(for: usage) else { continue }
                #expect(policy.evictionTarget(for: target) == nil, "\(usage) → \(target) still over")
            }
        case .victimsAreExpiredThenLeastRecentlyUsed:
            // 100 entries of 1 KB, used a minute apart, oldest first.
            let entries = (0..<100).map { i in
                CacheEntryInfo(key: CacheKey(source: "k\(i)"), cost: 1_000,
                               createdAt: start.addingTimeInterval(Double(i - 100) * 60),
                               lastAccessAt: start.addingTimeInterval(Double(i - 100) * 60))
            }
            let victims = policy.victims(lruOrdered: entries, incoming: CacheUsage(cost: 1_000, count: 1), now: start)
            let expired = entries.filter { policy.isExpired($0, now: start) }.map(\.key)
            #expect(Array(victims.prefix(expired.count)) == expired, "every expired entry goes first")
            let live = entries.map(\.key).filter { !expired.contains($0) }
            let evicted = Array(victims.dropFirst(expired.count))
            #expect(Array(live.prefix(evicted.count)) == evicted, "then the least recently used, in order")
        }
    }
}
