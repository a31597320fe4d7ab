// Cache figures, each beside its peer measured in the same run:
// - MemoryCache get and set operations per second on 1 and 2 threads, against Foundation's
//   NSCache doing the same work (same keys, same values, same access pattern);
// - DiskCache hit latency (p50, p99) for 100 KB entries with 10,000 entries indexed,
//   against reading the same file directly.
//
// usage: CacheBenchmark [memory|disk|all] [WORK_DIR]
import Dispatch
import Foundation
import OspreyDiskCache
import OspreyDomain
import OspreyMemoryCache

let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "all"
let work = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : NSTemporaryDirectory() + "osprey-cache-bench"

// MARK: - Memory cache against NSCache

final class Box {  // NSCache holds objects
    let image: Image
    init(_ image: Image) { self.image = image }
}

/// NSCache is documented thread-safe; Swift cannot see that.
final class SharedNSCache: @unchecked Sendable {
    let cache = NSCache<NSString, Box>()
}

/// The same keys, values and access order for both caches. `@unchecked Sendable`: read only.
final class MemoryFixture: @unchecked Sendable {
    static let keyCount = 10_000
    let image = try! Image(width: 16, height: 16, pixelFormat: .rgba8, pixels: [UInt8](repeating: 7, count: 1_024))
    let cacheKeys = (0..<keyCount).map { CacheKey(source: "https://images.example/\($0).jpg", variant: "size=200x200,fit") }
    lazy var stringKeys = cacheKeys.map { $0.stringValue as NSString }
    lazy var boxes = (0..<Self.keyCount).map { _ in Box(image) }
    /// A fixed pseudo-random access sequence.
    let sequence: [Int] = {
        var state: UInt64 = 42
        return (0..<1_000_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % keyCount
        }
    }()
}

/// Runs `body` for every index of `sequence`, split over `threads` threads, and gives
/// operations per second (best of three passes).
func throughput(threads: Int, sequence: [Int], _ body: @Sendable @escaping (Int) -> Void) -> Double {
    var best = 0.0
    for _ in 0..<3 {
        let perThread = sequence.count / threads
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            let base = t * perThread
            for i in base..<base + perThread { body(sequence[i]) }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        best = max(best, Double(perThread * threads) / seconds)
    }
    return best
}

func memoryBenchmark() {
    let f = MemoryFixture()
    let (keys, names, boxes, image) = (f.cacheKeys, f.stringKeys, f.boxes, f.image)
    let ours = MemoryCache(configuration: .init(costLimit: 1 << 30, timeToLive: 300))
    let theirs = SharedNSCache()
    theirs.cache.totalCostLimit = 1 << 30
    for i in 0..<MemoryFixture.keyCount {
        ours.store(image, for: keys[i])
        theirs.cache.setObject(boxes[i], forKey: names[i], cost: image.cost)
    }
    print("| operation | threads | MemoryCache ops/s | NSCache ops/s | ratio |")
    print("|---|---|---|---|---|")
    for threads in [1, 2] {
        let ourGet = throughput(threads: threads, sequence: f.sequence) { _ = ours.image(for: f.cacheKeys[$0]) }
        let theirGet = throughput(threads: threads, sequence: f.sequence) { _ = theirs.cache.object(forKey: f.stringKeys[$0]) }
        print(String(format: "| get | %d | %.2fM | %.2fM | %.2f× |", threads, ourGet / 1e6, theirGet / 1e6, ourGet / theirGet))
        let ourSet = throughput(threads: threads, sequence: f.sequence) { ours.store(f.image, for: f.cacheKeys[$0]) }
        let theirSet = throughput(threads: threads, sequence: f.sequence) { theirs.cache.setObject(f.boxes[$0], forKey: f.stringKeys[$0], cost: f.image.cost) }
        print(String(format: "| set | %d | %.2fM | %.2fM | %.2f× |", threads, ourSet / 1e6, theirSet / 1e6, ourSet / theirSet))
    }
}

// MARK: - Disk cache hit latency against a direct read

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func diskBenchmark() async throws {
    let folder = URL(fileURLWithPath: work).appendingPathComponent("disk")
    try? FileManager.default.removeItem(at: folder)
    let cache = try DiskCache(configuration: .init(directory: folder, sizeLimit: 2_000_000_000))
    let payload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let keys = (0..<10_000).map { CacheKey(source: "https://images.example/photo-\($0).jpg") }
    for key in keys { try await cache.store(CachedData(data: payload), for: key) }
    let entries = try cache.entries()
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("data").path)
        .filter { $0.contains("-") }.map { folder.appendingPathComponent("data").appendingPathComponent($0).path }
    precondition(entries.count == 10_000 && files.count == 10_000)

    var ours: [Double] = [], direct: [Double] = []
    var state: UInt64 = 7
    for round in 0..<20_000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let i = Int(state >> 33) % keys.count
        // Interleaved: one hit through the cache, one direct read of a file of the same size.
        if round % 2 == 0 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let hit = try await cache.cachedData(for: keys[i])
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3)
            precondition(hit?.data.count == 100_000)
        } else {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let data = FileManager.default.contents(atPath: files[i])
            direct.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e3)
            precondition(data?.count == 100_000)
        }
    }
    print("| 100 KB hit, 10,000 entries indexed | p50 | p99 |")
    print("|---|---|---|")
    print(String(format: "| DiskCache.cachedData(for:) | %.1f µs | %.1f µs |", percentile(ours, 0.5), percentile(ours, 0.99)))
    print(String(format: "| FileManager.contents(atPath:) on the same files | %.1f µs | %.1f µs |", percentile(direct, 0.5), percentile(direct, 0.99)))
    print(String(format: "| ratio | %.2f× | %.2f× |", percentile(ours, 0.5) / percentile(direct, 0.5), percentile(ours, 0.99) / percentile(direct, 0.99)))
    cache.close()
    try? FileManager.default.removeItem(at: folder)
}

if mode == "memory" || mode == "all" { memoryBenchmark() }
if mode == "disk" || mode == "all" { try await diskBenchmark() }

