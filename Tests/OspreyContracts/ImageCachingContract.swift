import OspreyDomain
import OspreyTesting
import Testing

/// The behaviour every ``ImageCaching`` must show. Run it from a parameterised test:
///
/// ```swift
/// @Test(arguments: ImageCachingContract.Check.allCases)
/// func passesContract(_ check: ImageCachingContract.Check) async throws {
///     try await ImageCachingContract { cost, count in MemoryCache(costLimit: cost, countLimit: count) }.run(check)
/// }
/// ```
public struct ImageCachingContract: Sendable {
    /// Makes an empty cache with the given cost (bytes) and count limits.
    public typealias Factory = @Sendable (_ costLimit: Int, _ countLimit: Int) -> any ImageCaching

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case storedImageReadsBack, missReturnsNil, storeReplacesPreviousImage, removeRemovesOnlyThatKey, removeSourceRemovesEveryVariantOnly,
             removeAllEmptiesTheCache, usageCountsCostAndEntries, costLimitEvictsLeastRecentlyUsed,
             countLimitEvictsLeastRecentlyUsed, readRefreshesRecency, staysConsistentUnderConcurrentTasks
    }

    private let make: Factory
    /// Every image the checks store costs this many bytes (10×10 RGBA).
    static let entryCost = 400

    /// Creates the contract for caches `make` builds.
    public init(make: @escaping Factory) { self.make = make }

    /// Runs one check on a fresh cache.
    public func run(_ check: Check) async throws {
        switch check {
        case .storedImageReadsBack:
            let cache = make(.max, .max)
            let image = TestImages.gradient(PixelSize(width: 10, height: 10))
            cache.store(image, for: key(1))
            #expect(cache.image(for: key(1)) == image)
        case .missReturnsNil:
            let cache = make(.max, .max)
            cache.store(entry(), for: key(1))
            #expect(cache.image(for: key(2)) == nil)
            #expect(cache.image(for: CacheKey(source: "k1", variant: "other")) == nil, "a variant is a different key")
        case .storeReplacesPreviousImage:
            let cache = make(.max, .max)
            cache.store(entry(1), for: key(1))
            cache.store(entry(2), for: key(1))
            #expect(cache.image(for: key(1)) == entry(2))
            #expect(cache.usage == CacheUsage(cost: Self.entryCost, count: 1))
        case .removeRemovesOnlyThatKey:
            let cache = make(.max, .max)
            cache.store(entry(), for: key(1))
            cache.store(entry(), for: key(2))
            cache.removeImage(for: key(1))
            cache.removeImage(for: key(99))
            #expect(cache.image(for: key(1)) == nil)
            #expect(cache.image(for: key(2)) != nil)
            #expect(cache.usage == CacheUsage(cost: Self.entryCost, count: 1))
        case .removeSourceRemovesEveryVariantOnly:
            let cache = make(.max, .max)
            let variants = [CacheKey(source: "s"), CacheKey(source: "s", variant: "a"), CacheKey(source: "s", variant: "b")]
            let others = [CacheKey(source: "s2"), CacheKey(source: "t", variant: "a")]
            for key in variants + others { cache.store(entry(), for: key) }
            cache.removeImages(forSource: "s")
            for key in variants { #expect(cache.image(for: key) == nil, "\(key) removed") }
            for key in others { #expect(cache.image(for: key) != nil, "\(key) kept") }
            #expect(cache.usage == CacheUsage(cost: 2 * Self.entryCost, count: 2))
        case .removeAllEmptiesTheCache:
            let cache = make(.max, .max)
            for i in 0..<10 { cache.store(entry(), for: key(i)) }
            cache.removeAll()
            #expect(cache.usage == .zero)
            #expect((0..<10).allSatisfy { cache.image(for: key($0)) == nil })
        case .usageCountsCostAndEntries:
            let cache = make(.max, .max)
            let small = TestImages.solid(PixelSize(width: 10, height: 10)), gray = TestImages.solid(PixelSize(width: 8, height: 5), format: .gray8)
            cache.store(small, for: key(1))
            cache.store(gray, for: key(2))
            #expect(cache.usage == CacheUsage(cost: small.cost + gray.cost, count: 2))
            #expect(small.cost == 400 && gray.cost == 40, "cost is the pixel buffer's size")
        case .costLimitEvictsLeastRecentlyUsed:
            let limit = 20 * Self.entryCost
            try checkLimit(make(limit, .max), entries: 30) { $0.cost <= limit }
        case .countLimitEvictsLeastRecentlyUsed:
            try checkLimit(make(.max, 20), entries: 30) { $0.count <= 20 }
        case .readRefreshesRecency:
            let cache = make(20 * Self.entryCost, .max)
            var order = (0..<20).map(key)
            for k in order { cache.store(entry(), for: k) }
            #expect(cache.image(for: key(0)) != nil, "nothing was evicted yet")
            order.append(order.removeFirst())
            cache.store(entry(), for: key(20))
            order.append(key(20))
            // Key 0 was read last, so key 1 must go before it.
            #expect(LRUOrder.presentKeysFormSuffix(of: order) { Self.peekContains(cache, $0) })
        case .staysConsistentUnderConcurrentTasks:
            let cache = make(30 * Self.entryCost, .max)
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var generator = SeededGenerator(seed: UInt64(worker + 1))
                        for _ in 0..<2_000 {
                            let k = Self.key(Int.random(in: 0..<50, using: &generator))
                            switch Int.random(in: 0..<10, using: &generator) {
                            case 0..<4: cache.store(Self.entry(), for: k)
                            case 4..<9: _ = cache.image(for: k)
                            default: cache.removeImage(for: k)
                            }
                        }
                    }
                }
            }
            let usage = cache.usage
            let held = (0..<50).filter { cache.image(for: key($0)) != nil }.count
            #expect(usage.cost <= 30 * Self.entryCost)
            #expect(usage.count == held, "usage counts exactly the entries that read back")
            #expect(usage.cost == held * Self.entryCost)
        }
    }

    /// Stores `entries` images in order and checks the limit after each store, that the newest
    /// is always held, and that what is held is the most recent block.
    private func checkLimit(_ cache: any ImageCaching, entries: Int, within: (CacheUsage) -> Bool) throws {
        for i in 0..<entries {
            cache.store(entry(), for: key(i))
            #expect(within(cache.usage), "over the limit after store \(i): \(cache.usage)")
        }
        #expect(Self.peekContains(cache, key(entries - 1)), "the newest entry is held")
        #expect(cache.usage.count < entries, "something was evicted")
        #expect(LRUOrder.presentKeysFormSuffix(of: (0..<entries).map(key)) { Self.peekContains(cache, $0) })
    }

    /// Whether `cache` holds `key`. Reading refreshes recency, so callers check from oldest
    /// to newest, which keeps the order they are checking.
    private static func peekContains(_ cache: any ImageCaching, _ key: CacheKey) -> Bool { cache.image(for: key) != nil }

    static func key(_ i: Int) -> CacheKey { CacheKey(source: "k\(i)") }
    private func key(_ i: Int) -> CacheKey { Self.key(i) }
    static func entry(_ value: UInt8 = 0x80) -> Image { TestImages.solid(PixelSize(width: 10, height: 10), value: value) }
    private func entry(_ value: UInt8 = 0x80) -> Image { Self.entry(value) }
}
