import Foundation
import OspreyDomain
import OspreyTesting
import Testing

/// The behaviour every ``DataCaching`` must show. Run it from a parameterised test with a
/// factory that makes an empty cache holding at most `sizeLimit` bytes.
public struct DataCachingContract: Sendable {
    /// Makes an empty cache with the given size limit in bytes.
    public typealias Factory = @Sendable (_ sizeLimit: Int) async throws -> any DataCaching

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case storedBytesAndMetadataReadBack, missReturnsNil, storeReplacesPreviousEntry, updateMetadataKeepsBytes,
             updateMetadataOfMissingKeyDoesNothing, removeRemovesOnlyThatKey, removeSourceRemovesEveryVariantOnly, removeAllEmptiesTheCache,
             usageCountsBytesAndEntries, sizeLimitIsNeverPassed, evictsLeastRecentlyUsed, readRefreshesRecency,
             entryLargerThanLimitIsRefusedAndKeepsOthers, staysConsistentUnderConcurrentTasks, sourcesHoldingTheSeparatorStayApart
    }

    private let make: Factory
    static let entrySize = 1_000

    /// Creates the contract for caches `make` builds.
    public init(make: @escaping Factory) { self.make = make }

    /// Runs one check on a fresh cache.
    public func run(_ check: Check) async throws {
        switch check {
        case .storedBytesAndMetadataReadBack:
            let cache = try await make(.max)
            let metadata = CachedDataMetadata(
                format: .jpeg, pixelSize: PixelSize(width: 640, height: 480), etag: "\"abc\"",
                lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", freshUntil: Date(timeIntervalSince1970: 1_900_000_000),
                sourceURL: "https://example.com/a.jpg"
            )
            let entry = CachedData(data: Self.bytes(5_000, seed: 7), metadata: metadata)
            try await cache.store(entry, for: key(1))
            #expect(try await cache.cachedData(for: key(1)) == entry)
        case .missReturnsNil:
            let cache = try await make(.max)
            try await cache.store(entry(), for: key(1))
            #expect(try await cache.cachedData(for: key(2)) == nil)
            #expect(try await cache.containsData(for: key(1)))
        case .storeReplacesPreviousEntry:
            let cache = try await make(.max)
            try await cache.store(entry(seed: 1), for: key(1))
            try await cache.store(entry(seed: 2), for: key(1))
            #expect(try await cache.cachedData(for: key(1)) == entry(seed: 2))
            #expect(try await cache.usage() == CacheUsage(cost: Self.entrySize, count: 1))
        case .updateMetadataKeepsBytes:
            let cache = try await make(.max)
            try await cache.store(entry(seed: 3), for: key(1))
            let refreshed = CachedDataMetadata(format: .png, etag: "\"v2\"", freshUntil: Date(timeIntervalSince1970: 2_000_000_000))
            try await cache.updateMetadata(refreshed, for: key(1))
            #expect(try await cache.cachedData(for: key(1)) == CachedData(data: Self.bytes(Self.entrySize, seed: 3), metadata: refreshed))
        case .updateMetadataOfMissingKeyDoesNothing:
            let cache = try await make(.max)
            try await cache.updateMetadata(CachedDataMetadata(etag: "x"), for: key(1))
            #expect(try await cache.cachedData(for: key(1)) == nil)
            #expect(try await cache.usage() == .zero)
        case .removeRemovesOnlyThatKey:
            let cache = try await make(.max)
            try await cache.store(entry(), for: key(1))
            try await cache.store(entry(), for: key(2))
            try await cache.removeData(for: key(1))
            try await cache.removeData(for: key(99))
            #expect(try await cache.cachedData(for: key(1)) == nil)
            #expect(try await cache.cachedData(for: key(2)) != nil)
        case .removeSourceRemovesEveryVariantOnly:
            let cache = try await make(.max)
            let source = "https://example.com/a.jpg"
            let keys = [CacheKey(source: source), CacheKey(source: source, variant: "size=10x10,fit"), CacheKey(source: source, variant: "p=blur(2)")]
            let others = [CacheKey(source: source + "x"), CacheKey(source: "https://example.com/a.jpgx", variant: "v"), CacheKey(source: "https://example.com/a")]
            for key in keys + others { try await cache.store(entry(), for: key) }
            try await cache.removeData(forSource: source)
            for key in keys { #expect(try await cache.cachedData(for: key) == nil, "\(key) removed") }
            for key in others { #expect(try await cache.cachedData(for: key) != nil, "\(key) kept") }
            #expect(try await cache.usage() == CacheUsage(cost: 3 * Self.entrySize, count: 3))
        case .sourcesHoldingTheSeparatorStayApart:
            // A custom key or a file path may hold "#", the separator of source and variant.
            let cache = try await make(.max)
            let plain = [CacheKey(source: "a"), CacheKey(source: "a", variant: "b")]
            let hashed = [CacheKey(source: "a#b"), CacheKey(source: "a#b", variant: "v"), CacheKey(source: "/tmp/x#1.jpg")]
            for (index, key) in (plain + hashed).enumerated() { try await cache.store(entry(seed: UInt64(index)), for: key) }
            for (index, key) in (plain + hashed).enumerated() {
                #expect(try await cache.cachedData(for: key)?.data == entry(seed: UInt64(index)).data, "\(key) reads its own bytes")
            }
            try await cache.removeData(forSource: "a")
            for key in plain { #expect(try await cache.cachedData(for: key) == nil, "\(key) removed") }
            for key in hashed { #expect(try await cache.cachedData(for: key) != nil, "\(key) kept") }
            try await cache.removeData(forSource: "a#b")
            #expect(try await cache.cachedData(for: hashed[0]) == nil)
            #expect(try await cache.cachedData(for: hashed[1]) == nil)
            #expect(try await cache.cachedData(for: hashed[2]) != nil)
        case .removeAllEmptiesTheCache:
            let cache = try await make(.max)
            for i in 0..<10 { try await cache.store(entry(), for: key(i)) }
            try await cache.removeAll()
            #expect(try await cache.usage() == .zero)
            for i in 0..<10 { #expect(try await cache.cachedData(for: key(i)) == nil) }
        case .usageCountsBytesAndEntries:
            let cache = try await make(.max)
            try await cache.store(CachedData(data: Self.bytes(123, seed: 1)), for: key(1))
            try await cache.store(CachedData(data: Self.bytes(4_567, seed: 2)), for: key(2))
            #expect(try await cache.usage() == CacheUsage(cost: 4_690, count: 2))
        case .sizeLimitIsNeverPassed:
            let limit = 20 * Self.entrySize
            let cache = try await make(limit)
            var generator = SeededGenerator(seed: 42)
            for i in 0..<100 {  // 5× the limit, entries of random size up to twice the usual
                let size = Int.random(in: 1...(2 * Self.entrySize), using: &generator)
                try await cache.store(CachedData(data: Self.bytes(size, seed: UInt64(i))), for: key(i))
                let usage = try await cache.usage()
                #expect(usage.cost <= limit, "over the limit after write \(i): \(usage)")
                #expect(try await cache.containsData(for: key(i)), "the entry just written is held")
            }
        case .evictsLeastRecentlyUsed:
            let cache = try await make(20 * Self.entrySize)
            for i in 0..<30 { try await cache.store(entry(), for: key(i)) }
            let order = (0..<30).map(key)
            #expect(try await LRUOrder.presentKeysFormSuffix(of: order, in: cache))
            #expect(try await cache.usage().count < 30, "something was evicted")
        case .readRefreshesRecency:
            let cache = try await make(20 * Self.entrySize)
            for i in 0..<20 { try await cache.store(entry(), for: key(i)) }
            #expect(try await cache.containsData(for: key(0)))
            try await cache.store(entry(), for: key(20))
            let order = (1..<20).map(key) + [key(0), key(20)]
            #expect(try await LRUOrder.presentKeysFormSuffix(of: order, in: cache), "key 0 was read, so key 1 goes first")
        case .entryLargerThanLimitIsRefusedAndKeepsOthers:
            let cache = try await make(10 * Self.entrySize)
            for i in 0..<5 { try await cache.store(entry(), for: key(i)) }
            await #expect(throws: DataCacheError.self) {
                try await cache.store(CachedData(data: Self.bytes(11 * Self.entrySize, seed: 9)), for: key(99))
            }
            for i in 0..<5 { #expect(try await cache.cachedData(for: key(i)) == entry()) }
            #expect(try await cache.cachedData(for: key(99)) == nil)
        case .staysConsistentUnderConcurrentTasks:
            let cache = try await make(30 * Self.entrySize)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var generator = SeededGenerator(seed: UInt64(worker + 100))
                        for _ in 0..<300 {
                            let i = Int.random(in: 0..<50, using: &generator)
                            switch Int.random(in: 0..<10, using: &generator) {
                            case 0..<4: try await cache.store(Self.entry(seed: UInt64(i)), for: Self.key(i))
                            case 4..<9:
                                if let found = try await cache.cachedData(for: Self.key(i)) {
                                    // The bytes and metadata, whichever tier of a tiered cache held them.
                                    let expected = Self.entry(seed: UInt64(i))
                                    #expect(found.data == expected.data && found.metadata == expected.metadata, "an entry reads back whole")
                                }
                            default: try await cache.removeData(for: Self.key(i))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            var held = 0
            for i in 0..<50 where try await cache.containsData(for: key(i)) { held += 1 }
            let usage = try await cache.usage()
            #expect(usage.count == held && usage.cost == held * Self.entrySize)
            #expect(usage.cost <= 30 * Self.entrySize)
        }
    }

    /// Deterministic bytes of `count`, different for each seed.
    public static func bytes(_ count: Int, seed: UInt64) -> Data {
        var generator = SeededGenerator(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func key(_ i: Int) -> CacheKey { CacheKey(source: "https://example.com/\(i).jpg") }
    private func key(_ i: Int) -> CacheKey { Self.key(i) }
    static func entry(seed: UInt64 = 0) -> CachedData {
        CachedData(data: bytes(entrySize, seed: seed), metadata: CachedDataMetadata(format: .jpeg, etag: "\"\(seed)\""))
    }
    private func entry(seed: UInt64 = 0) -> CachedData { Self.entry(seed: seed) }
}

extension LRUOrder {
    /// The async form of ``presentKeysFormSuffix(of:isPresent:)`` for a data cache, reading
    /// from oldest to newest so the reads keep the order being checked.
    static func presentKeysFormSuffix(of order: [CacheKey], in cache: any DataCaching) async throws -> Bool {
        var present: [Bool] = []
        for key in order { present.append(try await cache.containsData(for: key)) }
        return presentKeysFormSuffix(of: Array(present.indices)) { present[$0] }
    }
}
