import Foundation
import OspreyTesting
import Testing

extension ServerProcessTests {
    /// Reads the value of `series` in Prometheus' text.
    static func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func aMemoryBudgetRefusesWhatItCanNeverHoldAndMetricsSayWhereTheMemoryIs() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        // A header that says 14000×14000 (196 MP, within the source limit given): at full size
        // as a PNG it needs three copies of 588 MB, more than the budget (widened under a
        // sanitizer) can give one request.
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        origin.serve("huge.jpg", CraftedImages.jpeg(from: photo, width: 14000, height: 14000), contentType: "image/jpeg")
        let metricsPort = try LoopbackPort.free()
        let budget = 300_000_000 + Sanitizer.memoryOverhead
        let server = try Self.server(origin, ["--max-memory", "\(budget)B", "--metrics-bind", "127.0.0.1:\(metricsPort)",
                                              "--development-errors", "--max-source-resolution", "200"])
        defer { #expect(server.stop() == 0) }
        let paths = try Self.paths([Spec(url: origin.url("/files/huge.jpg").absoluteString, extension_: "png"),
                                    Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 64, height: 64)])
        let refused = try server.get(paths[0])
        let detail = String(decoding: refused.body, as: UTF8.self)
        #expect(refused.status == 422 && detail.contains("memory budget"), "\(refused.status) \(detail)")
        #expect(try server.get(paths[1]).status == 200, "a thumbnail fits")
        // The monitor records every half second.
        var text = ""
        for _ in 0..<100 {
            text = try Self.metrics(port: metricsPort)
            if (Self.value("memory_cache_bytes{cache=\"answers\"}", in: text) ?? 0) > 0 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(Self.value("memory_budget_bytes", in: text) == Double(budget), "\(text)")
        #expect(Self.value("memory_budget_in_flight_bytes", in: text) == 0)
        #expect((Self.value("process_resident_memory_bytes", in: text) ?? 0) > 10_000_000)
        #expect((Self.value("memory_cache_bytes{cache=\"answers\"}", in: text) ?? 0) > 0, "the thumbnail's answer is kept")
        #expect(Self.value("memory_cache_bytes{cache=\"images\"}", in: text) != nil)
    }

    @Test func aBudgetThatLeavesNothingForWorkStopsTheStart() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        #expect { try Self.server(origin, ["--max-memory", "1MB"]) } throws: { "\($0)".contains("the memory budget, 1 MB, leaves nothing") }
    }
}
