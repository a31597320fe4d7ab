import Foundation
import OspreyTesting
import Testing

/// imgproxy's own test cases, their expectations ported (`Tests/Scripts/imgproxy_cases.py`)
/// and run over HTTP against osprey-server started with each case's imgproxy environment.
// Run only with OSPREY_IMGPROXY_CASES=1: `make test` runs it after the suite, as the fleet, since
// its hundred server starts would take both cores from the suite's time bounds.
@Suite("imgproxy's own cases",
       .enabled(if: ProcessInfo.processInfo.environment["OSPREY_IMGPROXY_CASES"] == "1",
                "make test runs imgproxy's cases after the suite (OSPREY_IMGPROXY_CASES=1)"))
struct ImgproxyCompatibilityTests {
    struct Report: Decodable {
        struct Case: Decodable {
            let source: String
            let name: String
            let passed: Bool
            let pending: String?
            let error: String?
        }

        let cases: [Case]
        let failed: Int
    }

    @Test func imgproxysCasesPassOverHTTP() async throws {
        let script = Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/imgproxy_cases.py").path
        let corpus = try #require(Corpus.root, "the corpus beside the checkout").path
        let server = ServerProcess.buildFolder.appendingPathComponent("osprey-server").path
        let output = try await onThread {
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", script, server, corpus, "--json"]
            let pipe = Pipe()
            python.standardOutput = pipe
            try python.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            python.waitUntilExit()
            return data
        }
        let report = try JSONDecoder().decode(Report.self, from: output)
        let failures = report.cases.filter { !$0.passed && $0.pending == nil }
        #expect(failures.isEmpty, "\(failures.map { "\($0.source) \($0.name): \($0.error ?? "")" })")
        #expect(report.cases.count >= 80, "the port's cases all ran: \(report.cases.count)")
        // A pending case that passes is no longer pending: its mark must go.
        let passingPending = report.cases.filter { $0.passed && $0.pending != nil }
        #expect(passingPending.isEmpty, "\(passingPending.map(\.name)) pass: drop their pending mark")
    }
}
