import Foundation
import OspreyContracts
import OspreyTesting
import Testing

@Suite("osprey fetch")
struct FetchCommandTests {
    static var osprey: String { CLITests.executable.path }
    static let body = DataCachingContract.bytes(300_000, seed: 3)

    /// The loopback test server with one file.
    static func server() throws -> TestHTTPServer {
        let server = try TestHTTPServer()
        server.serve("photo.jpg", body, contentType: "image/jpeg")
        return server
    }

    @Test func fetchWritesTheBytesAsTheyAreWithPlainProgressLines() async throws {
        let server = try Self.server()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID()).bin").path
        let outcome = try ChildProcess.run(Self.osprey, ["fetch", server.url("/drip/5/files/photo.jpg").absoluteString, "-o", output])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(FileManager.default.contents(atPath: output) == Self.body)
        #expect(outcome.output.contains("progress: 300000/300000 bytes"), "\(outcome.output)")
        let html = try ChildProcess.run(Self.osprey, ["fetch", server.url("/html").absoluteString, "-o", output])
        #expect(html.status == 0, "bytes as they are, whatever they are")
    }

    @Test func networkAndHTTPFailuresExitWith69Quickly() async throws {
        let server = try Self.server()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID()).bin").path
        let missing = try ChildProcess.run(Self.osprey, ["fetch", server.url("/status/404").absoluteString, "-o", output])
        #expect(missing.status == 69 && missing.output.contains("HTTP 404 for"))
        let closed = server.url("/files/photo.jpg")
        server.stop()
        let started = ContinuousClock.now
        let refused = try ChildProcess.run(Self.osprey, ["fetch", closed.absoluteString, "-o", output])
        #expect(refused.status == 69, "\(refused.output)")
        #expect(ContinuousClock.now - started < Sanitizer.scaled(.seconds(9)), "well before the 10 s connect timeout")
        #expect(try ChildProcess.run(Self.osprey, ["fetch", "ftp://127.0.0.1/x", "-o", output]).status == 64)
    }
}
