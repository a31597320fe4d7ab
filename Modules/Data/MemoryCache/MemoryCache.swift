import Foundation
import OspreyDomain

/// Decoded images in memory: strict LRU in O(1), limited by total cost and count, with an
/// expiry since last access. Thread-safe with a mutex; a hit never suspends or hops actors.
///
/// ```swift
/// let cache = MemoryCache(costLimit: 64 << 20)   // 64 MB of pixels
/// cache.store(image, for: key)
/// let hit = cache.image(for: key)
/// ```
///
/// - important: An image costing more than ``Configuration/maxEntryShare`` of the cost limit
///   (10% by default, as Nuke) is not stored: it would push out everything else.
public final class MemoryCache: ImageCaching, MemoryTrimming {
    /// Limits and expiry.
    public struct Configuration: Sendable {
        /// The most total cost (bytes of pixels) held.
        public var costLimit: Int
        /// The most images held.
        public var countLimit: Int
        /// The largest share of ``costLimit`` one image may take, in `0...1`.
        public var maxEntryShare: Double
        /// How long an image lives after it was last used; `nil` for ever.
        public var timeToLive: TimeInterval?

        /// Creates a configuration; by default the lesser of 512 MB and 20% of physical
        /// memory, no count limit, 10% per entry, 300 s since last use (as Kingfisher).
        public init(
            costLimit: Int = Configuration.defaultCostLimit, countLimit: Int = .max,
            maxEntryShare: Double = 0.1, timeToLive: TimeInterval? = 300
        ) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.maxEntryShare = maxEntryShare
            self.timeToLive = timeToLive
        }

        /// The lesser of 512 MB and 20% of physical memory.
        public static var defaultCostLimit: Int {
            min(512 << 20, Int(ProcessInfo.processInfo.physicalMemory / 5))
        }
    }

    /// Hits, misses and evictions since creation.
    public struct Statistics: Hashable, Sendable {
        /// Reads that found an image.
        public var hits = 0
        /// Reads that found nothing (or an expired image).
        public var misses = 0
        /// Images removed to keep a limit or because they expired.
        public var evictions = 0

        /// Creates counters.
        public init(hits: Int = 0, misses: Int = 0, evictions: Int = 0) {
            self.hits = hits
            self.misses = misses
            self.evictions = evictions
        }
    }

    private struct State {
        var list = LRUList<CacheKey, Image>()
        var statistics = Statistics()
    }

    /// The limits in force.
    public let configuration: Configuration
    private let clock: any Clock
    private let state = Locked(State())

    /// Creates a cache.
    public init(configuration: Configuration = Configuration(), clock: any Clock = SystemClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Creates a cache with the given limits and the default expiry.
    public convenience init(costLimit: Int, countLimit: Int = .max) {
        self.init(configuration: Configuration(costLimit: costLimit, countLimit: countLimit))
    }

    public func image(for key: CacheKey) -> Image? {
        let now = clock.now.timeIntervalSinceReferenceDate
        return state.withLock { state in
            if let ttl = configuration.timeToLive, let node = state.list.peek(key), now - node.lastAccess >= ttl {
                state.list.remove(key)
                state.statistics.evictions += 1
                state.statistics.misses += 1
                return nil
            }
            guard let image = state.list.touch(key, now: now) else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            return image
        }
    }

    public func store(_ image: Image, for key: CacheKey) {
        let now = clock.now.timeIntervalSinceReferenceDate
        let cost = image.cost
        state.withLock { state in
            guard Double(cost) <= Double(configuration.costLimit) * configuration.maxEntryShare else {
                state.list.remove(key)  // never keep a stale image under the key
                return
            }
            state.list.set(key, image, cost: cost, now: now)
            evictExpired(&state, now: now)
            while state.list.totalCost > configuration.costLimit || state.list.count > configuration.countLimit {
                state.list.removeOldest()
                state.statistics.evictions += 1
            }
        }
    }

    public func removeImage(for key: CacheKey) {
        state.withLock { _ = $0.list.remove(key) }
    }

    public func removeImages(forSource source: String) {
        state.withLock { state in
            for key in state.list.keys.filter({ $0.source == source }) { _ = state.list.remove(key) }
        }
    }

    public func removeAll() {
        state.withLock { $0.list.removeAll() }
    }

    /// Removes least recently used images until the total cost is at most `cost`.
    public func trim(toCost cost: Int) {
        state.withLock { state in
            while state.list.totalCost > max(0, cost), state.list.removeOldest() != nil {
                state.statistics.evictions += 1
            }
        }
    }

    public var usage: CacheUsage {
        state.withLock { CacheUsage(cost: $0.list.totalCost, count: $0.list.count) }
    }

    /// The images' total cost: their pixels' bytes.
    public var cost: Int { state.withLock { $0.list.totalCost } }

    /// Hits, misses and evictions so far.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// Drops expired images from the old end; the list is in last-access order, so the
    /// first unexpired image ends the sweep.
    private func evictExpired(_ state: inout State, now: Double) {
        guard let ttl = configuration.timeToLive else { return }
        while let oldest = state.list.node(at: state.list.oldest), now - oldest.lastAccess >= ttl {
            state.list.remove(oldest.key)
            state.statistics.evictions += 1
        }
    }
}
