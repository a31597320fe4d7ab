import Foundation
import OspreyCodec
import OspreyServer
import OspreyTesting
import Testing

/// Many requests at once: metrics, the memory bound, and a stop under load.
extension ServerProcessTests {
    /// Every URL fetched at once by curl: each transfer's status and curl's exit code for it.
    static func fetchAtOnce(_ urls: [String], folder: URL) throws -> [(status: Int, exit: Int)] {
        let config = folder.appendingPathComponent("urls-\(UUID().uuidString).txt")
        try Data(urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined().utf8).write(to: config)
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "--parallel", "--parallel-immediate", "--parallel-max", "300", "--max-time", "\(Sanitizer.scaled(120))",
                          "-w", "%{http_code} %{exitcode}\\n", "--config", config.path]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (Int(parts.first ?? "") ?? -1, Int(parts.last ?? "") ?? -1)
        }
    }

    /// The process's peak resident memory in bytes (VmHWM).
    static func peakMemory(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The text of `/metrics` on the metrics port, once its listener answers (it starts beside
    /// the public one).
    static func metrics(port: Int) throws -> String {
        for _ in 0..<200 {
            if let got = try? CurlGet.run("http://127.0.0.1:\(port)/metrics"), got.status == 200 { return got.text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        struct NoMetrics: Error { let port: Int }
        throw NoMetrics(port: port)
    }

    @Test func metricsCountTheRequestsMadeOnTheirOwnPort() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let metricsPort = try LoopbackPort.free()
        let server = try Self.server(origin, ["--metrics-bind", "127.0.0.1:\(metricsPort)"])
        defer { #expect(server.stop() == 0) }
        let public_ = try server.get("/metrics")
        #expect(public_.status != 200 && !String(decoding: public_.body, as: UTF8.self).contains("requests_total"), "not on the public port")
        let paths = try Self.paths([Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 40, height: 40),
                                    Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 50, height: 50),
                                    Spec(url: origin.url("/files/photo.jpg").absoluteString, key: "0011", salt: "0011", width: 40)])
        for path in paths { try server.get(path) }
        let text = try Self.metrics(port: metricsPort)
        func value(_ series: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        // imgproxy's names, so that its dashboards read them.
        #expect(value("requests_total") == 4, "the three and the public /metrics: \(text)")
        #expect(value("status_codes_total{status=\"200\"}") == 2)
        #expect(value("status_codes_total{status=\"403\"}") == 1)
        #expect(value("errors_total{type=\"security\"}") == 1)
        #expect(value("source_fetches_total") == 1)
        #expect((value("bytes_out_total") ?? 0) > 0)
        #expect(text.contains("request_duration_seconds_bucket"))
    }

    @Test func threeHundredRequestsAtOnceGetAnswersOr429WithinTheMemoryBound() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        for index in 0..<300 { origin.serve("p\(index).jpg", photo, contentType: "image/jpeg") }
        let server = try Self.server(origin, ["--max-queue", "24", "--memory-limit", "32"])
        defer { #expect(server.stop() == 0) }
        let paths = try Self.paths((0..<300).map { Spec(url: origin.url("/delay/300/files/p\($0).jpg").absoluteString, width: 64, height: 64) })
        let results = try Self.fetchAtOnce(paths.map { server.base + $0 }, folder: server.folder)
        #expect(results.count == 300)
        #expect(results.allSatisfy { $0.exit == 0 && ($0.status == 200 || $0.status == 429) }, "\(results.filter { $0.status != 200 && $0.status != 429 })")
        #expect(results.contains { $0.status == 200 } && results.contains { $0.status == 429 })
        let peak = Self.peakMemory(of: server.process.processIdentifier)
        #expect(peak < 250_000_000 + Sanitizer.memoryOverhead, "peak \(peak / 1_000_000) MB")
    }

    @Test func sigtermUnderLoadLosesNoAcceptedRequest() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        for index in 0..<100 { origin.serve("p\(index).jpg", photo, contentType: "image/jpeg") }
        // A deadline longer than the whole run: this is about shutting down, not timing out.
        let server = try Self.server(origin, ["--max-queue", "200", "--timeout", "120"])
        let paths = try Self.paths((0..<100).map { Spec(url: origin.url("/delay/500/files/p\($0).jpg").absoluteString, width: 64, height: 64) })
        let pid = server.process.processIdentifier
        let stopper = Thread {
            Thread.sleep(forTimeInterval: 0.4)  // the requests are in, the origin still answering
            kill(pid, SIGTERM)
        }
        stopper.start()
        let results = try Self.fetchAtOnce(paths.map { server.base + $0 }, folder: server.folder)
        #expect(server.stop() == 0)
        // A request is answered, or never taken up: refused at connect (curl's 7), or reset in
        // the listen queue as the server closes it (52, 56). Every request whose source the
        // server asked for was answered: as many answers as sources fetched.
        #expect(results.allSatisfy { ($0.exit == 0 && $0.status == 200) || [7, 52, 56].contains($0.exit) },
                "\(results.filter { !($0.exit == 0 && $0.status == 200) && ![7, 52, 56].contains($0.exit) })")
        let fetched = (0..<100).reduce(0) { $0 + origin.hits("/delay/500/files/p\($1).jpg") }
        #expect(results.filter { $0.status == 200 }.count == fetched, "answers against sources fetched")
        #expect(fetched > 0)
    }
}
