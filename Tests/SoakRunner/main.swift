// The soak, in a process of its own so that its memory is its own: the test suite runs
// other suites beside it in one process. Prints one JSON line with what it measured and
// checked; `SoakTests` runs it and judges the figures.
import Foundation
import Osprey
import OspreyTesting

enum Soak {
    /// 20,000 unless `OSPREY_SOAK_REQUESTS` says otherwise (`make test-asan` runs a shorter soak).
    static let requests = Int(ProcessInfo.processInfo.environment["OSPREY_SOAK_REQUESTS"] ?? "") ?? 20_000
    static let callers = 64
    static let sources = 120
    static let sizes = [24, 40, 64, 96, 128, 160]
    static let memoryLimit = 4_000_000
    static let diskLimit = 1_500_000

    /// A distinct 320×240 JPEG per seed.
    static func source(_ seed: Int) -> Data {
        var pixels = [UInt8](repeating: 0, count: 320 * 240 * 3)
        for y in 0..<240 {
            for x in 0..<320 {
                let o = (y * 320 + x) * 3
                pixels[o] = UInt8(truncatingIfNeeded: x * (seed % 7 + 1) + seed)
                pixels[o + 1] = UInt8(truncatingIfNeeded: y * (seed % 5 + 1) + seed * 3)
                pixels[o + 2] = UInt8(truncatingIfNeeded: (x ^ y) + seed * 11)
            }
        }
        let image = try! Image(width: 320, height: 240, pixelFormat: .rgb8, pixels: pixels)
        return try! ImageCodec().encode(image, options: EncodingOptions(format: .jpeg, quality: 0.85))
    }

    static func hash(_ image: Image) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in image.pixels { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash ^ UInt64(image.width << 32 | image.height)
    }

    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    struct Key: Hashable { let source: Int, side: Int, mode: ContentMode }

}

struct Report: Codable {
    var requests = 0, failed = 0, unexpected = 0, variants = 0, mismatched = 0, downloads = 0
    var seconds = 0.0, diskPeak = 0, diskLimit = 0, memoryLimit = 0, residentPeak = 0
    /// The lowest PSNR of an image that was not bit-identical to a single-threaded decode.
    var lowestPSNR: Double?
}

/// Whether each image the callers got is a single-threaded decode of the same source, size
/// and mode, or a resample of a reduced decode of it (the pipeline makes the sizes a source's
/// reduction covers from it, so which one a request gets depends on what was asked before):
/// the same size and at least 25 dB from the decode. Two resampling filters differ by down to
/// 27.5 dB on these synthetic XOR patterns; a few rows of garbage in a 24-px image fall under
/// 22 dB. Each distinct image is checked once.
final class ImageCheck: Sendable {
    let bodies: [Data]
    private let checked = Locked([Soak.Key: [UInt64: Double]]())

    init(bodies: [Data]) {
        self.bodies = bodies
    }

    /// The PSNR of `image` against a single-threaded decode (infinite when identical); `nil`
    /// when its size differs.
    func psnr(of image: Image, for key: Soak.Key) throws -> Double? {
        let hash = Soak.hash(image)
        if let known = checked.withLock({ $0[key]?[hash] }) { return known }
        let reference = try ImageCodec().decode(.data(bodies[key.source]), options: DecodingOptions(
            targetSize: PixelSize(width: key.side, height: key.side), contentMode: key.mode))
        guard reference.size == image.size, reference.pixelFormat == image.pixelFormat else { return nil }
        let psnr = ReferenceDecoder.psnr(reference.pixels, image.pixels)
        checked.withLock { $0[key, default: [:]][hash] = psnr }
        return psnr
    }
}


/// Runs the soak and returns what it measured. Everything it made is released when it
/// returns, so LeakSanitizer (`make test-asan`) sees at exit only what was really lost.
func soak() async throws -> Report {
    let server = try TestHTTPServer()
    let bodies = (0..<Soak.sources).map(Soak.source)
    for (i, body) in bodies.enumerated() { server.serve("img-\(i).jpg", body, contentType: "image/jpeg") }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-soak-\(UUID().uuidString)")
    var configuration = OspreyConfiguration(cacheDirectory: folder, diskLimit: Soak.diskLimit, memoryLimit: Soak.memoryLimit)
    configuration.network.maxRetries = 0
    let (pipeline, _, disk) = try configuration.makeParts()
    let diskCache = disk!

    // Watch the disk's total and the process's memory while the callers run.
    let peaks = Locked((disk: 0, resident: 0))
    let watcher = Task {
        while !Task.isCancelled {
            let bytes = (try? diskCache.statistics().bytes) ?? 0
            let resident = Soak.residentBytes()
            peaks.withLock { $0 = (max($0.disk, bytes), max($0.resident, resident)) }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
    let check = ImageCheck(bodies: bodies)
    let start = ContinuousClock.now
    let outcomes = await withTaskGroup(of: ([Soak.Key: Set<UInt64>], Int, Int, [Double?]).self) { group in
        for caller in 0..<Soak.callers {
            group.addTask {
                var generator = SeededGenerator(seed: UInt64(caller + 1))
                var seen: [Soak.Key: Set<UInt64>] = [:]
                var failed = 0, unexpected = 0
                var quality: [Double?] = []
                for _ in 0..<(Soak.requests / Soak.callers) {
                    let failing = Int.random(in: 0..<10, using: &generator) == 0
                    let source = Int.random(in: 0..<Soak.sources, using: &generator)
                    let side = Soak.sizes.randomElement(using: &generator)!
                    let mode: ContentMode = Bool.random(using: &generator) ? .fit : .fill
                    let url = server.url(failing ? "/status/404/\(source)" : "/files/img-\(source).jpg")
                    let request = ImageRequest(url: url, targetSize: PixelSize(width: side, height: side), contentMode: mode)
                    do {
                        let image = try await pipeline.image(for: request).image
                        if failing { unexpected += 1 }
                        let key = Soak.Key(source: source, side: side, mode: mode)
                        if seen[key, default: []].insert(Soak.hash(image)).inserted { quality.append(try check.psnr(of: image, for: key)) }
                    } catch ImagePipeline.Error.dataLoadingFailed(.httpStatus(404, _)) where failing {
                        failed += 1
                    } catch {
                        unexpected += 1
                    }
                }
                return (seen, failed, unexpected, quality)
            }
        }
        var merged: [Soak.Key: Set<UInt64>] = [:]
        var failed = 0, unexpected = 0
        var quality: [Double?] = []
        for await (seen, f, u, q) in group {
            merged.merge(seen) { $0.union($1) }
            failed += f
            unexpected += u
            quality += q
        }
        return (merged, failed, unexpected, quality)
    }
    let elapsed = ContinuousClock.now - start
    watcher.cancel()
    let (seen, failed, unexpected, quality) = outcomes
    let total = Soak.requests / Soak.callers * Soak.callers
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let peak = peaks.withLock { $0 }
    var report = Report(requests: total, failed: failed, unexpected: unexpected, variants: seen.count,
                        downloads: server.requests.count, seconds: seconds, diskPeak: peak.disk,
                        diskLimit: Soak.diskLimit, memoryLimit: Soak.memoryLimit, residentPeak: peak.resident)
    report.mismatched = quality.filter { ($0 ?? 0) < 25 }.count
    report.lowestPSNR = quality.compactMap { $0 }.filter(\.isFinite).min()
    server.stop()
    try? FileManager.default.removeItem(at: folder)
    return report
}

do {  // locals, not globals: LeakSanitizer misses some pointers held in globals
    let report = try await soak()
    print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
}
// LeakSanitizer ends the process from an exit handler, before stdout's buffer would be written.
fflush(nil)  // every output stream
