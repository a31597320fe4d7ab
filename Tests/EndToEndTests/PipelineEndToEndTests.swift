import Foundation
import Osprey
import OspreyTesting
import Testing

/// The whole pipeline — libcurl, SQLite disk cache, memory cache, real codecs — against the
/// misbehaving HTTP server on loopback.
struct EndToEnd {
    let server: TestHTTPServer
    let cacheDirectory: URL
    let clock = ManualClock(start: Date())

    /// A 640×480 photograph-like JPEG, made by the real encoder.
    static let photo = try! ImageCodec().encode(TestImages.gradient(PixelSize(width: 640, height: 480), format: .rgb8),
                                                options: EncodingOptions(format: .jpeg, quality: 0.9))

    init(headers: [String: String] = ["Cache-Control": "max-age=3600"]) throws {
        server = try TestHTTPServer()
        server.serve("photo.jpg", Self.photo, contentType: "image/jpeg", headers: headers)
        cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-e2e-\(UUID().uuidString)")
    }

    /// A pipeline over the shared cache folder with a memory cache of its own, as a process has.
    func pipeline(storage: DiskStoragePolicy = .originalData, maxConcurrentTransfers: Int = 6) throws -> (pipeline: ImagePipeline, disk: DiskCache) {
        var configuration = OspreyConfiguration(cacheDirectory: cacheDirectory, diskStorage: storage)
        configuration.network.maxConcurrentTransfers = maxConcurrentTransfers
        configuration.network.retryBaseDelay = 0.01
        let parts = try configuration.makeParts()
        // The same parts, with a clock the test moves.
        var wired = parts.pipeline.configuration
        wired.clock = clock
        return (ImagePipeline(configuration: wired), parts.disk!)
    }

    var url: URL { server.url("/files/photo.jpg") }

    func finish() {
        server.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    /// Runs the `osprey` binary built beside the tests; returns its status and stdout.
    func osprey(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osprey")
        process.arguments = arguments + ["--cache-dir", cacheDirectory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

@Suite("Pipeline end to end")
struct PipelineEndToEndTests {
    static let thumb = PixelSize(width: 160, height: 160)

    @Test func networkThenDiskInANewProcessThenMemoryInTheSameOne() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let first = try e.osprey(["load", e.url.absoluteString, "--size", "160x160", "--json"])
        #expect(first.status == 0)
        let line = try JSONDecoder().decode(LoadLine.self, from: Data(first.stdout.utf8))
        #expect(line.tier == "network" && line.width == 160 && line.height == 120 && line.url == e.url.absoluteString)
        let second = try JSONDecoder().decode(LoadLine.self, from: Data(try e.osprey(["load", e.url.absoluteString, "--size", "160x160", "--json"]).stdout.utf8))
        #expect(second.tier == "disk", "a second process finds it on disk")
        #expect(e.server.hits("/files/photo.jpg") == 1)
        let (pipeline, _) = try e.pipeline()
        let request = ImageRequest(url: e.url, targetSize: Self.thumb)
        #expect(try await pipeline.image(for: request).tier == .disk)
        let again = try await pipeline.image(for: request)
        #expect(again.tier == .memory && again.image.size == PixelSize(width: 160, height: 120))
        #expect(e.server.hits("/files/photo.jpg") == 1)
    }

    @Test func aHundredConcurrentIdenticalRequestsMakeOneGET() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        e.server.serve("slow.jpg", EndToEnd.photo)
        let (pipeline, _) = try e.pipeline()
        let request = ImageRequest(url: e.server.url("/delay/200/files/slow.jpg"), targetSize: Self.thumb)
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<100 { group.addTask { try await pipeline.image(for: request) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.count == 100 && Set(responses.map(\.image)).count == 1)
        #expect(e.server.hits("/delay/200/files/slow.jpg") == 1)
    }

    @Test func cancellingEveryCallerClosesTheServersConnection() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let (pipeline, _) = try e.pipeline()
        let request = ImageRequest(url: e.server.url("/stall/files/photo.jpg"))
        let callers = (0..<10).map { _ in Task { try await pipeline.image(for: request) } }
        // A hang guard, not a bound: a starved cooperative pool at the suite's start has held
        // this test past 20 s.
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(120))
        while e.server.connections.opened < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(e.server.connections.opened == 1, "one transfer for ten callers")
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        while e.server.connections.closed < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(e.server.connections.closed == 1, "the server saw its connection close")
    }

    @Test func threeTargetSizesCostOneDownloadAndProcessorVariantsAreCachedApart() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let (pipeline, disk) = try e.pipeline()
        for side in [64, 128, 256] {
            let response = try await pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: side, height: side)))
            #expect(response.image.width == side)
        }
        #expect(e.server.hits("/files/photo.jpg") == 1, "one download serves every size")
        let blurred = ImageRequest(url: e.url, targetSize: Self.thumb, processors: [ImageProcessors.GaussianBlur(radius: 4)])
        let gray = ImageRequest(url: e.url, targetSize: Self.thumb, processors: [ImageProcessors.Grayscale()])
        let a = try await pipeline.image(for: blurred), b = try await pipeline.image(for: gray)
        #expect(a.image != b.image && b.image.pixelFormat == .gray8)
        #expect(try await pipeline.image(for: blurred).image == a.image)
        #expect(try await pipeline.image(for: gray).tier == .memory)
        #expect(e.server.hits("/files/photo.jpg") == 1)
        #expect(try disk.statistics().entries == 1, "the disk holds the original once")

        // With processed storage each variant has its own disk entry.
        let (processedPipeline, processedDisk) = try e.pipeline(storage: .originalAndProcessed(.auto))
        _ = try await processedPipeline.image(for: blurred)
        _ = try await processedPipeline.image(for: gray)
        #expect(try processedDisk.statistics().entries == 3)
    }

    @Test func aFailedRequestIsNotCached() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let (pipeline, disk) = try e.pipeline()
        let missing = ImageRequest(url: e.server.url("/status/404"))
        for _ in 0..<2 {
            await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: missing) }
        }
        #expect(e.server.hits("/status/404") == 2, "the failure was not remembered")
        let html = ImageRequest(url: e.server.url("/html"))
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: html) }
        #expect(try disk.statistics().entries == 0)
    }

    @Test func a304RefreshDownloadsNoBody() async throws {
        let e = try EndToEnd(headers: ["Cache-Control": "max-age=60"])
        defer { e.finish() }
        let (first, disk) = try e.pipeline()
        #expect(try await first.image(for: ImageRequest(url: e.url, targetSize: Self.thumb)).tier == .network)
        let sent = e.server.bodyBytesSent
        #expect(sent == EndToEnd.photo.count)
        e.clock.advance(by: 120)
        let (second, secondDisk) = try e.pipeline()
        let response = try await second.image(for: ImageRequest(url: e.url, targetSize: Self.thumb))
        #expect(response.tier == .disk)
        #expect(e.server.hits("/files/photo.jpg") == 2)
        #expect(e.server.requests.last?.headers["if-none-match"] != nil, "a conditional GET")
        #expect(e.server.bodyBytesSent == sent, "the 304 carried no body")
        _ = disk  // another process's cache instance sees the refresh only when it next reads the index
        let metadata = try #require(try await secondDisk.cachedData(for: ImageRequest(url: e.url).dataKey)).metadata
        #expect(try #require(metadata.freshUntil) > e.clock.now, "fresh again for another max-age")
    }

    @Test func invalidateRemovesTheSourceFromEveryTier() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        #expect(try e.osprey(["load", e.url.absoluteString, "--size", "64x64"]).status == 0)
        let invalidated = try e.osprey(["cache", "invalidate", e.url.absoluteString])
        #expect(invalidated.status == 0 && invalidated.stdout.contains("removed 1 entries"))
        let line = try JSONDecoder().decode(LoadLine.self, from: Data(try e.osprey(["load", e.url.absoluteString, "--size", "64x64", "--json"]).stdout.utf8))
        #expect(line.tier == "network")
    }
}

/// One line of `osprey load --json`.
struct LoadLine: Decodable {
    let url: String
    let tier: String
    let width: Int
    let height: Int
    let ms: Double
}
