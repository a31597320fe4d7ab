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
