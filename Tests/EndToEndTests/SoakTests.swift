import Foundation
import OspreyTesting
import Testing

/// Thousands of requests through the whole pipeline over loopback: 64 callers at once,
/// random sizes and modes, one URL in ten failing, caches far smaller than the working set.
/// It runs in its own process (`Tests/SoakRunner`) so that the memory measured is its own,
/// and only when `OSPREY_SOAK=1`: `make soak` runs it alone, because its load on both cores
/// would starve the suite's time-bounded tests.
@Suite("Soak", .enabled(if: ProcessInfo.processInfo.environment["OSPREY_SOAK"] == "1", "make test runs the soak alone (OSPREY_SOAK=1)"))
struct SoakTests {
    struct Report: Codable {
        var requests: Int, failed: Int, unexpected: Int, variants: Int, mismatched: Int, downloads: Int
        var seconds: Double, diskPeak: Int, diskLimit: Int, memoryLimit: Int, residentPeak: Int, lowestPSNR: Double?
    }

    @Test func twentyThousandRequestsFromSixtyFourCallersStayCorrectAndWithinLimits() throws {
        // make soak names the release runner, built as programs ship; else the one beside the tests.
        let runner = ProcessInfo.processInfo.environment["OSPREY_SOAK_RUNNER"]
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("SoakRunner").path
        let outcome = try ChildProcess.run(runner, [])
        #expect(outcome.status == 0, "\(outcome.output.suffix(2000))")
        let line = try #require(outcome.output.split(separator: "\n").last { $0.hasPrefix("{") })
        let report = try JSONDecoder().decode(Report.self, from: Data(line.utf8))
        print("soak: \(report.requests) requests in \(String(format: "%.1f", report.seconds)) s "
              + "(\(Int(Double(report.requests) / report.seconds)) requests/s), \(report.failed) failed as expected, "
              + "\(report.variants) variants, \(report.downloads) downloads, disk peak \(report.diskPeak) of \(report.diskLimit), "
              + "process peak \(outcome.peakMemory / 1_000_000) MB, lowest PSNR \(report.lowestPSNR.map { String(format: "%.1f dB", $0) } ?? "none (all identical)")")
        let asked = Int(ProcessInfo.processInfo.environment["OSPREY_SOAK_REQUESTS"] ?? "") ?? 20_000
        #expect(report.requests >= asked / 64 * 64, "every caller finished its share of \(asked)")
        #expect(report.unexpected == 0, "every request either loaded or failed with its 404")
        #expect(report.failed > report.requests / 20 && report.failed < report.requests / 5, "about one in ten failed")
        #expect(report.mismatched == 0, "every image is a single-threaded decode or a resample of a reduced one, 25 dB or closer")
        #expect(report.diskPeak <= report.diskLimit, "the disk cache never passed its limit")
        // The whole process: the memory cache's limit plus a stated overhead of 150 MB for the
        // runtime, the loader, the loads in flight, the test server's threads and allocator slack.
        #expect(outcome.peakMemory <= report.memoryLimit + 150_000_000 + Sanitizer.memoryOverhead, "process peak \(outcome.peakMemory)")
    }
}
