import Foundation
import OspreyDomain

/// Encoded bytes in memory, least recently used out first, limited by their total size: the
/// memory tier of the pipeline's encoded images (`ImagePipeline.Configuration.memoryDataCache`),
/// so a repeated request is sent as it was, without a disk read. A hit never suspends on an
/// actor; the methods are `async` only because `DataCaching` is.
///
/// ```swift
/// let answers = MemoryDataCache(costLimit: 16 << 20)
/// let configuration = ImagePipeline.Configuration(dataLoader: loader, decoder: codec, memoryDataCache: answers)
/// ```
///
/// - important: An entry larger than a tenth of the limit is not kept (it would push out
///   everything else), and one larger than the limit is refused with
///   `DataCacheError.entryTooLarge`.
public final class MemoryDataCache: DataCaching, MemoryTrimming {
    /// The most bytes held.
    public let costLimit: Int
    private let list = Locked(LRUList<CacheKey, CachedData>())

    /// A cache of at most `costLimit` bytes.
    public init(costLimit: Int) { self.costLimit = costLimit }

    public func cachedData(for key: CacheKey) async throws -> CachedData? {
        list.withLock { $0.touch(key, now: 0) }
    }

    public func store(_ entry: CachedData, for key: CacheKey) async throws {
        let cost = entry.data.count
        guard cost <= costLimit else {
            list.withLock { _ = $0.remove(key) }
            throw DataCacheError.entryTooLarge(size: cost, limit: costLimit)
        }
        list.withLock { list in
            guard cost * 10 <= costLimit else {
                _ = list.remove(key)  // never keep an older entry under the key
                return
            }
            list.set(key, entry, cost: cost, now: 0)
            while list.totalCost > costLimit, list.removeOldest() != nil {}
        }
    }

    public func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws {
        list.withLock { list in
            guard let node = list.peek(key) else { return }
            list.set(key, CachedData(data: node.value.data, metadata: metadata), cost: node.cost, now: 0)
        }
    }

    public func removeData(for key: CacheKey) async throws {
        list.withLock { _ = $0.remove(key) }
    }

    public func removeData(forSource source: String) async throws {
        list.withLock { list in
            for key in list.keys.filter({ $0.source == source }) { _ = list.remove(key) }
        }
    }

    public func removeAll() async throws {
        list.withLock { $0.removeAll() }
    }

    public func usage() async throws -> CacheUsage {
        list.withLock { CacheUsage(cost: $0.totalCost, count: $0.count) }
    }

    /// The bytes held now.
    public var cost: Int { list.withLock { $0.totalCost } }

    /// Removes least recently used entries until at most `cost` bytes are held.
    public func trim(toCost cost: Int) {
        list.withLock { list in
            while list.totalCost > max(0, cost), list.removeOldest() != nil {}
        }
    }
}
