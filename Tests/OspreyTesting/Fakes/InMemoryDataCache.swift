import Foundation
import OspreyDomain

/// A ``DataCaching`` held in memory: LRU by size and count, expiry by a ``CachePolicy``
/// against an injectable ``Clock``. A fake for pipeline tests; it can be told to fail.
public actor InMemoryDataCache: DataCaching {
    private struct Entry {
        var value: CachedData
        var info: CacheEntryInfo
    }

    private var entries: [CacheKey: Entry] = [:]
    private var order: [CacheKey] = []  // least recently used first
    private let sizeLimit: Int
    private let policy: any CachePolicy
    private let clock: any Clock
    private var failure: DataCacheError?

    /// How many reads and writes reached the cache.
    public private(set) var readCount = 0
    /// How many writes reached the cache.
    public private(set) var writeCount = 0

    /// Creates a cache holding at most `sizeLimit` bytes and `countLimit` entries, with
    /// entries expiring under `expiry`.
    public init(sizeLimit: Int = .max, countLimit: Int = .max, expiry: ExpiryPolicy.Rule = .never, clock: any Clock = SystemClock()) {
        self.sizeLimit = sizeLimit
        self.policy = CompositeCachePolicy(LRULimitPolicy(costLimit: sizeLimit, countLimit: countLimit), ExpiryPolicy(expiry))
        self.clock = clock
    }

    /// Makes every later call throw `error` (or work again, with `nil`).
    public func failEveryCall(with error: DataCacheError?) { failure = error }

    public func cachedData(for key: CacheKey) async throws -> CachedData? {
        if let failure { throw failure }
        readCount += 1
        guard var entry = entries[key] else { return nil }
        let now = clock.now
        if policy.isExpired(entry.info, now: now) {
            remove(key)
            return nil
        }
        entry.info.lastAccessAt = now
        entries[key] = entry
        touch(key)
        return entry.value
    }

    public func store(_ value: CachedData, for key: CacheKey) async throws {
        if let failure { throw failure }
        writeCount += 1
        guard value.data.count <= sizeLimit else { throw DataCacheError.entryTooLarge(size: value.data.count, limit: sizeLimit) }
        remove(key)
        let now = clock.now
        let incoming = CacheUsage(cost: value.data.count, count: 1)
        let lru = order.compactMap { entries[$0]?.info }
        for victim in policy.victims(lruOrdered: lru, incoming: incoming, now: now) { remove(victim) }
        entries[key] = Entry(value: value, info: CacheEntryInfo(key: key, cost: value.data.count, createdAt: now, lastAccessAt: now))
        order.append(key)
    }

    public func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws {
        if let failure { throw failure }
        entries[key]?.value.metadata = metadata
    }

    public func removeData(for key: CacheKey) async throws {
        if let failure { throw failure }
        remove(key)
    }

    public func removeData(forSource source: String) async throws {
        if let failure { throw failure }
        for key in entries.keys where key.source == source { remove(key) }
    }

    public func removeAll() async throws {
        if let failure { throw failure }
        entries = [:]
        order = []
    }

    public func usage() async throws -> CacheUsage {
        if let failure { throw failure }
        return CacheUsage(cost: entries.values.reduce(0) { $0 + $1.info.cost }, count: entries.count)
    }

    private func touch(_ key: CacheKey) {
        order.removeAll { $0 == key }
        order.append(key)
    }

    private func remove(_ key: CacheKey) {
        guard entries.removeValue(forKey: key) != nil else { return }
        order.removeAll { $0 == key }
    }
}
