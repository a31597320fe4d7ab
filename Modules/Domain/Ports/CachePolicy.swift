import Foundation

/// Decides which entries of a cache expire and how far a cache must shrink.
///
/// A policy is pure: it sees entries and usage figures and answers; the cache keeps the
/// LRU order and removes entries least recently used first.
///
/// ```swift
/// let policy = CompositeCachePolicy(
///     LRULimitPolicy(costLimit: 256 << 20),
///     ExpiryPolicy(.sinceLastAccess(7 * 24 * 3600))
/// )
/// ```
public protocol CachePolicy: Sendable {
    /// `true` when `entry` has expired at `now`.
    func isExpired(_ entry: CacheEntryInfo, now: Date) -> Bool
    /// When `usage` (including an entry being written) breaks a limit, the usage to shrink
    /// to by removing least recently used entries; `nil` when nothing needs to go.
    func evictionTarget(for usage: CacheUsage) -> CacheUsage?
    /// `true` when a cache last opened at `lastOpened` should be cleared when opened at `now`.
    func shouldPurgeAll(lastOpened: Date, now: Date) -> Bool
}

extension CachePolicy {
    /// Nothing expires by default.
    public func isExpired(_ entry: CacheEntryInfo, now: Date) -> Bool { false }
    /// No limit by default.
    public func evictionTarget(for usage: CacheUsage) -> CacheUsage? { nil }
    /// No purge by default.
    public func shouldPurgeAll(lastOpened: Date, now: Date) -> Bool { false }

    /// The keys to remove from entries given least recently used first, when `incoming` more
    /// is about to be written: every expired entry, then the oldest until the target is met.
    ///
    /// Caches that keep their own LRU list apply the same rule incrementally; this is the
    /// reference that contract suites compare them with.
    public func victims(lruOrdered entries: [CacheEntryInfo], incoming: CacheUsage = .zero, now: Date) -> [CacheKey] {
        var usage = entries.reduce(into: incoming) { total, entry in
            total.cost += entry.cost
            total.count += 1
        }
        var removed: [CacheKey] = []
        var kept: [CacheEntryInfo] = []
        for entry in entries {
            if isExpired(entry, now: now) {
                removed.append(entry.key)
                usage.cost -= entry.cost
                usage.count -= 1
            } else {
                kept.append(entry)
            }
        }
        guard let target = evictionTarget(for: usage) else { return removed }
        for entry in kept where !usage.fits(within: target) {
            removed.append(entry.key)
            usage.cost -= entry.cost
            usage.count -= 1
        }
        return removed
    }
}
