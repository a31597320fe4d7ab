import Foundation

/// What a ``CachePolicy`` sees of one cache entry.
public struct CacheEntryInfo: Hashable, Sendable {
    /// The entry's key.
    public var key: CacheKey
    /// What it costs: bytes on disk, or an image's ``Image/cost`` in memory.
    public var cost: Int
    /// When it was stored.
    public var createdAt: Date
    /// When it was last read or written.
    public var lastAccessAt: Date

    /// Creates entry information.
    public init(key: CacheKey, cost: Int, createdAt: Date, lastAccessAt: Date) {
        self.key = key
        self.cost = cost
        self.createdAt = createdAt
        self.lastAccessAt = lastAccessAt
    }
}

/// How much a cache holds: total cost and number of entries.
public struct CacheUsage: Hashable, Sendable, CustomStringConvertible {
    /// The sum of the entries' costs.
    public var cost: Int
    /// The number of entries.
    public var count: Int

    /// Creates a usage figure.
    public init(cost: Int, count: Int) {
        self.cost = cost
        self.count = count
    }

    /// Nothing stored.
    public static let zero = CacheUsage(cost: 0, count: 0)

    /// `true` when neither figure is above `limit`'s.
    public func fits(within limit: CacheUsage) -> Bool { cost <= limit.cost && count <= limit.count }

    public var description: String { "\(count) entries, \(cost) bytes" }
}
