import Foundation
import OspreyDomain
@_spi(Parsing) @testable import OspreyNetwork
import OspreyContracts
import OspreyTesting
import Testing

@Suite("CurlDataLoader")
struct CurlDataLoaderTests {
    @Test("CurlDataLoader passes the DataLoading contract against a real server", arguments: DataLoadingContract.Check.allCases)
    func contract(_ check: DataLoadingContract.Check) async throws {
        // The stalled URL must outlast the contract's bound on cancellation: no stall timeout.
        let h = try NetworkHarness(configuration: .init(transferTimeout: 600, stallTimeout: 600, retryBaseDelay: 0.01))
        try await DataLoadingContract {
            .init(loader: h.loader, okURL: h.server.url("/files/photo.jpg"), okBody: NetworkHarness.body,
                  notFoundURL: h.server.url("/status/404"), slowURL: h.server.url("/stall/files/photo.jpg"))
        }.run(check)
        h.server.stop()
    }

    @Test func metadataCarriesStatusHeadersAndFreshness() async throws {
        let h = try NetworkHarness()
        let response = try await h.load("/files/photo.jpg")
        #expect(response.metadata.statusCode == 200)
        #expect(response.metadata.headers["content-type"] == "image/jpeg")
        #expect(response.metadata.freshness.maxAge == 600)
        #expect(response.metadata.validators?.etag != nil)
    }

    @Test func conditionalRequestsReportNotModified() async throws {
        let h = try NetworkHarness()
        let first = try await h.load("/files/photo.jpg")
        let second = try await h.load("/files/photo.jpg", validators: first.metadata.validators)
        #expect(second.metadata.isNotModified && second.data.isEmpty)
        #expect(h.server.requests.last?.headers["if-none-match"] == first.metadata.validators?.etag)
        #expect(h.server.requests.last?.headers["if-modified-since"] == "Mon, 01 Jan 2024 00:00:00 GMT")
        // The same handle serves the next request: it must not carry the validators along.
        #expect(try await h.load("/files/photo.jpg").data == NetworkHarness.body)
        #expect(h.server.requests.last?.headers["if-none-match"] == nil && h.server.requests.last?.headers["if-modified-since"] == nil)
    }

    /// A body too big to hold twice: a fixture that lives until exit, as the harness's does
    /// (LeakSanitizer cannot follow a `Data` held only by the server's threads).
    static let bigBody = DataCachingContract.bytes(20_000_000, seed: 8)

    @Test func aDownloadGoesStraightToItsFileAndARetryStartsItAgain() async throws {
        let h = try NetworkHarness()
        defer { h.server.stop() }
        let big = Self.bigBody
        h.server.serve("big.bin", big)
        let folder = try TemporaryFolder.make("download")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin").path
        let response = try await h.loader.download(DataRequest(url: h.server.url("/files/big.bin")), toFile: file)
        #expect(response.data.isEmpty && response.metadata.statusCode == 200)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == big)
        // Two 503s, then the file: the retries leave exactly one copy of the body.
        _ = try await h.loader.download(DataRequest(url: h.server.url("/flaky/2/503/files/photo.jpg")), toFile: file)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == NetworkHarness.body)
        // A file that cannot be written is the disk's error, not the server's.
        await #expect(throws: CurlDataLoader.WriteError.self) {
            try await h.loader.download(DataRequest(url: h.server.url("/files/photo.jpg")), toFile: "/dev/full")
        }
        await #expect(throws: CurlDataLoader.WriteError.self) {
            try await h.loader.download(DataRequest(url: h.server.url("/files/photo.jpg")), toFile: "/nonexistent/x.bin")
        }
    }

    @Test func redirectsAreFollowedUpToFiveAndLoopsRefused() async throws {
        let h = try NetworkHarness()
        #expect(try await h.load("/redirect/5/files/photo.jpg").data == NetworkHarness.body)
        await #expect(throws: DataLoadingError.tooManyRedirects(limit: 5, url: h.server.url("/redirect/6/files/photo.jpg").absoluteString)) {
            try await h.load("/redirect/6/files/photo.jpg")
        }
        await #expect(throws: DataLoadingError.tooManyRedirects(limit: 5, url: h.server.url("/loop").absoluteString)) { try await h.load("/loop") }
    }

    @Test func gzipIsDecoded() async throws {
        let h = try NetworkHarness()
        #expect(try await h.load("/gzip/files/photo.jpg").data == NetworkHarness.body)
        #expect(h.server.requests.last?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func aBodyShorterThanItsContentLengthIsAnError() async throws {
        let h = try NetworkHarness()
        for path in ["/short/files/photo.jpg", "/disconnect/files/photo.jpg"] {
            await #expect(throws: DataLoadingError.self, "\(path)") { try await h.load(path) }
        }
        do {
            _ = try await h.load("/short/files/photo.jpg")
        } catch let error as DataLoadingError {
            guard case .truncated(let received, let expected, _) = error else { Issue.record("\(error)"); return }
            #expect(received == 300_000 && expected == 301_000)
        }
    }

    @Test func responsesOverTheSizeLimitAreRefused() async throws {
        let h = try NetworkHarness(configuration: .init(maxResponseSize: 1_000_000))
        await #expect(throws: DataLoadingError.responseTooLarge(limit: 1_000_000, url: h.server.url("/huge/5000000").absoluteString)) {
            try await h.load("/huge/5000000")
        }
        #expect(try await h.load("/huge/999999").data.count == 999_999)
    }

    @Test func retriesServerErrorsAndTooManyRequestsTwice() async throws {
        let h = try NetworkHarness()
        #expect(try await h.load("/flaky/2/503/files/photo.jpg").data == NetworkHarness.body)
        #expect(h.server.hits("/flaky/2/503/files/photo.jpg") == 3)
        #expect(try await h.load("/flaky/2/429/files/photo.jpg").data.count == 300_000)
        await #expect(throws: DataLoadingError.httpStatus(503, url: h.server.url("/flaky/3/503/files/photo.jpg").absoluteString)) {
            try await h.load("/flaky/3/503/files/photo.jpg")
        }
        #expect(h.server.hits("/flaky/3/503/files/photo.jpg") == 3, "at most two retries")
        await #expect(throws: DataLoadingError.httpStatus(404, url: h.server.url("/status/404").absoluteString)) { try await h.load("/status/404") }
        #expect(h.server.hits("/status/404") == 1, "4xx is not retried")
    }

    @Test func bodyMemoryFollowsTheBytesThatArriveNotTheAnnouncedLength() {
        let transfer = Transfer(request: DataRequest(url: URL(string: "http://127.0.0.1/big.jpg")!), progress: { _ in }, limit: 50_000_000,
                                buffers: BodyBufferPool(idleLimit: 0), sourceGuard: SourceGuard(addressPolicy: nil, sourceFilter: nil),
                                followsRedirects: false)
        for line in ["HTTP/1.1 200 OK\r\n", "Content-Length: 40000000\r\n", "\r\n"] {
            _ = Array(line.utf8).withUnsafeBytes { transfer.receiveHeader($0) }
        }
        #expect(transfer.body.capacity <= 64 << 10, "40 MB announced, \(transfer.body.capacity) bytes reserved")
        let chunk = [UInt8](repeating: 7, count: 100_000)
        for _ in 0..<3 { _ = chunk.withUnsafeBytes { transfer.receiveBody($0) } }
        #expect(transfer.body.capacity <= 2 * 300_000, "300 KB arrived, \(transfer.body.capacity) bytes held")
        // Growth stops at the announced length.
        let small = Transfer(request: DataRequest(url: URL(string: "http://127.0.0.1/a.jpg")!), progress: { _ in }, limit: 50_000_000,
                             buffers: BodyBufferPool(idleLimit: 0), sourceGuard: SourceGuard(addressPolicy: nil, sourceFilter: nil),
                             followsRedirects: false)
        for line in ["HTTP/1.1 200 OK\r\n", "Content-Length: 150000\r\n", "\r\n"] {
            _ = Array(line.utf8).withUnsafeBytes { small.receiveHeader($0) }
        }
        for _ in 0..<3 { _ = chunk.prefix(50_000).withUnsafeBytes { small.receiveBody($0) } }
        #expect(small.body.count == 150_000 && small.body.capacity < 2 * 150_000, "\(small.body.capacity)")
    }

    @Test func requestModifierAddsHeaders() async throws {
        let h = try NetworkHarness(configuration: .init(requestModifier: { $0.headers["Authorization"] = "Bearer token" }))
        _ = try await h.load("/files/photo.jpg")
        #expect(h.server.requests.last?.headers["authorization"] == "Bearer token")
    }

    @Test func theDefaultHeadersAreSentOnceAndARequestMayReplaceThem() async throws {
        let h = try NetworkHarness()
        _ = try await h.load("/files/photo.jpg")
        #expect(h.server.requests.last?.headers["user-agent"] == "Osprey/0.1 libcurl")
        #expect(h.server.requests.last?.headers["accept-encoding"] == "gzip, deflate")
        let own = try NetworkHarness(configuration: .init(requestModifier: {
            $0.headers["user-agent"] = "Gallery/2"
            $0.headers["Accept-Encoding"] = "identity"
        }))
        _ = try await own.load("/files/photo.jpg")
        #expect(own.server.requests.last?.headers["user-agent"] == "Gallery/2", "replaced, not sent beside the default")
        #expect(own.server.requests.last?.headers["accept-encoding"] == "identity", "replaced, not sent beside the default")
        let other = try NetworkHarness(configuration: .init(requestModifier: { $0.headers["Accept"] = "image/webp" }))
        _ = try await other.load("/files/photo.jpg")
        #expect(other.server.requests.last?.headers["user-agent"] == "Osprey/0.1 libcurl", "kept beside a request's own headers")
        #expect(other.server.requests.last?.headers["accept-encoding"] == "gzip, deflate", "kept beside a request's own headers")
        #expect(other.server.requests.last?.headers["accept"] == "image/webp")
    }

    @Test func htmlIsDeliveredAsBytesForThePipelineToRefuse() async throws {
        let h = try NetworkHarness()
        let response = try await h.load("/html")
        #expect(response.metadata.headers["content-type"] == "text/html")
        #expect(String(decoding: response.data, as: UTF8.self).hasPrefix("<html>"))
    }

    @Test func cancellingAHundredTransfersReturnsEveryCallerPromptlyAndClosesTheConnections() async throws {
        let h = try NetworkHarness(configuration: .init(maxConcurrentTransfers: 100, maxConnectionsPerHost: 100, transferTimeout: 600, stallTimeout: 600))
        let tasks = (0..<100).map { _ in Task { try await h.load("/stall/files/photo.jpg") } }
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(90))
        while h.server.connections.opened < 100, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(h.server.connections.opened == 100, "all 100 in flight")
        let cancelled = ContinuousClock.now
        for task in tasks { task.cancel() }
        var slowest = Duration.zero
        for task in tasks {
            let result = await task.result
            slowest = max(slowest, ContinuousClock.now - cancelled)
            #expect(throws: CancellationError.self) { try result.get() }
        }
        print("cancellation: 100 callers returned within \(slowest)")
        // Measured alone: 8–44 ms; 4.2 s when suites that wait on child processes held both of
        // the pool's threads. Without cancellation the callers would wait 600 s (the timeouts).
        #expect(slowest < Sanitizer.scaled(.seconds(90)), "every caller returned within \(slowest)")
        let closing = ContinuousClock.now + Sanitizer.scaled(.seconds(90))
        while h.server.connections.closed < 100, ContinuousClock.now < closing { try await Task.sleep(for: .milliseconds(10)) }
        #expect(h.server.connections.closed == 100, "the server saw every connection close")
    }
}
