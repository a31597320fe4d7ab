import Foundation
import OspreyDiskCache
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

/// A fresh folder for one test's cache.
func temporaryCacheFolder() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-disk-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Suite("DiskCache")
struct DiskCacheTests {
    @Test("DiskCache passes the DataCaching contract", arguments: DataCachingContract.Check.allCases)
    func contract(_ check: DataCachingContract.Check) async throws {
        try await DataCachingContract { limit in
            try DiskCache(configuration: .init(directory: temporaryCacheFolder(), sizeLimit: limit))
        }.run(check)
    }

    @Test func entriesSurviveCloseAndReopen() async throws {
        let folder = temporaryCacheFolder()
        let metadata = CachedDataMetadata(format: .png, pixelSize: PixelSize(width: 3, height: 4), etag: "\"e\"",
                                          lastModified: "Tue, 01 Jan 2030 00:00:00 GMT", freshUntil: Date(timeIntervalSince1970: 2e9), sourceURL: "https://x/y.png")
        do {
            let cache = try DiskCache(configuration: .init(directory: folder))
            for i in 0..<20 { try await cache.store(CachedData(data: DataCachingContract.bytes(500 + i, seed: UInt64(i)), metadata: metadata), for: CacheKey(source: "k\(i)")) }
            _ = try await cache.cachedData(for: CacheKey(source: "k3"))
            cache.close()
        }
        let reopened = try DiskCache(configuration: .init(directory: folder))
        #expect(try await reopened.usage().count == 20)
        for i in 0..<20 {
            #expect(try await reopened.cachedData(for: CacheKey(source: "k\(i)")) == CachedData(data: DataCachingContract.bytes(500 + i, seed: UInt64(i)), metadata: metadata))
        }
        #expect(try reopened.verify().isConsistent)
    }

    @Test func entriesOfMegabytesReadBackWhole() async throws {
        // From a megabyte up, a hit is read into memory mapped for it alone; each size reads back
        // byte for byte, again after the first copy is freed.
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder()))
        let sizes = [(1 << 20) - 1, 1 << 20, 5_000_003]
        for (i, size) in sizes.enumerated() {
            try await cache.store(CachedData(data: DataCachingContract.bytes(size, seed: UInt64(i))), for: CacheKey(source: "big\(i)"))
        }
        for _ in 0..<2 {
            for (i, size) in sizes.enumerated() {
                let hit = try #require(try await cache.cachedData(for: CacheKey(source: "big\(i)")))
                #expect(hit.data == DataCachingContract.bytes(size, seed: UInt64(i)))
            }
        }
    }

    @Test func filesAreNamedByTheKeysHashNeverByTheKey() async throws {
        let folder = temporaryCacheFolder()
        let cache = try DiskCache(configuration: .init(directory: folder))
        try await cache.store(CachedData(data: Data("x".utf8)), for: CacheKey(source: "../../etc/passwd"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("data").path)
        #expect(files.count == 2, "\(files)")  // the shard folder and the file
        #expect(files.allSatisfy { !$0.contains("passwd") && !$0.contains("..") })
        #expect(try await cache.cachedData(for: CacheKey(source: "../../etc/passwd"))?.data == Data("x".utf8))
    }

    @Test func fillingWithFiveTimesTheLimitNeverPassesIt() async throws {
        let limit = 200_000
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder(), sizeLimit: limit))
        var generator = SeededGenerator(seed: 5)
        var written = 0, i = 0
        while written < 5 * limit {
            let size = Int.random(in: 100...20_000, using: &generator)
            try await cache.store(CachedData(data: DataCachingContract.bytes(size, seed: UInt64(i))), for: CacheKey(source: "r\(i)"))
            written += size
            i += 1
            let usage = try await cache.usage()
            #expect(usage.cost <= limit, "over the limit after write \(i): \(usage)")
        }
        #expect(try cache.verify().isConsistent)
    }

    @Test func aWriteThatPassesTheLimitTrimsToSeventyPercent() async throws {
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder(), sizeLimit: 10_000))
        for i in 0..<10 { try await cache.store(CachedData(data: DataCachingContract.bytes(1_000, seed: UInt64(i))), for: CacheKey(source: "\(i)")) }
        #expect(try await cache.usage() == CacheUsage(cost: 10_000, count: 10))
        try await cache.store(CachedData(data: DataCachingContract.bytes(1_000, seed: 99)), for: CacheKey(source: "new"))
        #expect(try await cache.usage() == CacheUsage(cost: 7_000, count: 7), "4 oldest went, then the new one came in")
    }

    @Test func countLimitAndBatchEvictionAreKept() async throws {
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder(), additionalPolicies: [BatchEvictionPolicy(threshold: 50, batchSize: 10)]))
        for i in 0..<51 { try await cache.store(CachedData(data: Data([UInt8(i)])), for: CacheKey(source: "\(i)")) }
        #expect(try await cache.usage().count == 41, "the 51st file removed the 10 least used")
        #expect(try await cache.cachedData(for: CacheKey(source: "9")) == nil)
        #expect(try await cache.cachedData(for: CacheKey(source: "10")) != nil)
    }

    @Test func entriesExpireSevenDaysAfterLastAccess() async throws {
        let clock = ManualClock()
        let folder = temporaryCacheFolder()
        let cache = try DiskCache(configuration: .init(directory: folder), clock: clock)
        try await cache.store(CachedData(data: Data("a".utf8)), for: CacheKey(source: "read"))
        try await cache.store(CachedData(data: Data("b".utf8)), for: CacheKey(source: "unread"))
        clock.advance(by: 6 * 86_400)
        #expect(try await cache.cachedData(for: CacheKey(source: "read")) != nil)
        clock.advance(by: 2 * 86_400)
        #expect(try await cache.cachedData(for: CacheKey(source: "unread")) == nil, "8 days unread")
        #expect(try await cache.cachedData(for: CacheKey(source: "read")) != nil, "read 2 days ago")
        cache.close()
        // The sweep at open removes what expired while closed.
        clock.advance(by: 8 * 86_400)
        let reopened = try DiskCache(configuration: .init(directory: folder), clock: clock)
        #expect(try await reopened.usage() == .zero)
    }

    @Test func httpFreshnessIsNotTheCachesLifetime() async throws {
        let clock = ManualClock()
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder()), clock: clock)
        let stale = CachedDataMetadata(etag: "\"v1\"", freshUntil: clock.now.addingTimeInterval(60))
        try await cache.store(CachedData(data: Data("img".utf8), metadata: stale), for: CacheKey(source: "u"))
        clock.advance(by: 3_600)
        let entry = try #require(try await cache.cachedData(for: CacheKey(source: "u")))
        #expect(entry.metadata.isStale(at: clock.now), "past max-age, still on disk for revalidation")
    }

    @Test func idleSessionPurgeClearsAtOpen() async throws {
        let clock = ManualClock()
        let folder = temporaryCacheFolder()
        let configuration = DiskCache.Configuration(directory: folder, timeToLive: nil, additionalPolicies: [IdlePurgePolicy(maximumIdle: 86_400)])
        do {
            let cache = try DiskCache(configuration: configuration, clock: clock)
            try await cache.store(CachedData(data: Data("a".utf8)), for: CacheKey(source: "a"))
            cache.close()
        }
        clock.advance(by: 3_600)
        do {
            let cache = try DiskCache(configuration: configuration, clock: clock)
            #expect(try await cache.usage().count == 1, "opened an hour later: kept")
            cache.close()
        }
        clock.advance(by: 86_401)
        let cache = try DiskCache(configuration: configuration, clock: clock)
        #expect(try await cache.usage() == .zero, "opened after a day unused: cleared")
    }

    @Test func lastAccessUpdatesAreBatchedAndFlushedOnClose() async throws {
        let clock = ManualClock()
        let folder = temporaryCacheFolder()
        let cache = try DiskCache(configuration: .init(directory: folder, accessBatchSize: 1_000), clock: clock)
        try await cache.store(CachedData(data: Data("a".utf8)), for: CacheKey(source: "a"))
        let stored = try #require(try cache.entries().first).accessed
        clock.advance(by: 100)
        _ = try await cache.cachedData(for: CacheKey(source: "a"))
        cache.close()
        let reopened = try DiskCache(configuration: .init(directory: folder), clock: clock)
        #expect(try reopened.entries().first?.accessed == stored.addingTimeInterval(100))
    }

    @Test func statisticsReportEntriesBytesLimitAndAccessRange() async throws {
        let clock = ManualClock()
        let cache = try DiskCache(configuration: .init(directory: temporaryCacheFolder(), sizeLimit: 1_000_000), clock: clock)
        try await cache.store(CachedData(data: Data(count: 300)), for: CacheKey(source: "a"))
        clock.advance(by: 10)
        try await cache.store(CachedData(data: Data(count: 200)), for: CacheKey(source: "b"))
        let stats = try cache.statistics()
        #expect(stats.entries == 2 && stats.bytes == 500 && stats.limitBytes == 1_000_000)
        #expect(stats.newestAccess!.timeIntervalSince(stats.oldestAccess!) == 10)
    }
}
