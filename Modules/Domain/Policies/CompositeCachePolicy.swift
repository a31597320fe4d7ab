import Foundation

/// Several policies at once: an entry expires when any says so, and a cache shrinks to the
/// smallest target any of them sets.
public struct CompositeCachePolicy: CachePolicy {
    /// The policies combined.
    public let policies: [any CachePolicy]

    /// Combines `policies`.
    public init(_ policies: [any CachePolicy]) { self.policies = policies }

    /// Combines `policies`.
    public init(_ policies: any CachePolicy...) { self.init(policies) }

    public func isExpired(_ entry: CacheEntryInfo, now: Date) -> Bool {
        policies.contains { $0.isExpired(entry, now: now) }
    }

    public func evictionTarget(for usage: CacheUsage) -> CacheUsage? {
        policies.compactMap { $0.evictionTarget(for: usage) }.reduce(nil) { smallest, target in
            guard let smallest else { return target }
            return CacheUsage(cost: min(smallest.cost, target.cost), count: min(smallest.count, target.count))
        }
    }

    public func shouldPurgeAll(lastOpened: Date, now: Date) -> Bool {
        policies.contains { $0.shouldPurgeAll(lastOpened: lastOpened, now: now) }
    }
}
