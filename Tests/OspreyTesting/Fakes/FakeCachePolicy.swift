import Foundation
import OspreyDomain

/// A plain policy for tests: entries live `timeToLive` seconds since last access, and the
/// cache holds at most `maxCount` entries, dropping the oldest down to it.
public struct FakeCachePolicy: CachePolicy {
    /// Seconds an unused entry lives.
    public var timeToLive: TimeInterval
    /// The most entries kept.
    public var maxCount: Int

    /// Creates a policy.
    public init(timeToLive: TimeInterval, maxCount: Int) {
        self.timeToLive = timeToLive
        self.maxCount = maxCount
    }

    public func isExpired(_ entry: CacheEntryInfo, now: Date) -> Bool {
        now.timeIntervalSince(entry.lastAccessAt) >= timeToLive
    }

    public func evictionTarget(for usage: CacheUsage) -> CacheUsage? {
        usage.count > maxCount ? CacheUsage(cost: usage.cost, count: maxCount) : nil
    }
}
