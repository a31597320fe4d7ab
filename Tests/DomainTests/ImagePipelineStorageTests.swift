import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("ImagePipeline disk storage and freshness")
struct ImagePipelineStorageTests {
    static let thumb = PixelSize(width: 16, height: 12)

    @Test func processedStorageWritesTheVariantAndNotTheOriginal() async throws {
        let h = PipelineHarness(diskStorage: .processedImage(.png))
        let request = h.request(Self.thumb, processors: [InvertProcessor()])
        let first = try await h.pipeline.image(for: request)
        #expect(try await h.disk.cachedData(for: request.dataKey) == nil)
        let stored = try #require(try await h.disk.cachedData(for: request.imageKey))
        #expect(stored.metadata.pixelSize == first.image.size && stored.metadata.sourceURL == PipelineHarness.url.absoluteString)
        let other = h.anotherProcess()
        let second = try await other.pipeline.image(for: request)
        #expect(second.tier == .disk && second.image == first.image)
        #expect(h.loader.loadCount == 1)
    }

    @Test func bothWritesTheOriginalAndTheVariant() async throws {
        let h = PipelineHarness(diskStorage: .originalData)
        var request = h.request(Self.thumb, processors: [InvertProcessor()])
        request.diskStorage = .originalAndProcessed(.png)  // a request overrides the pipeline
        _ = try await h.pipeline.image(for: request)
        #expect(try await h.disk.cachedData(for: request.dataKey) != nil)
        #expect(try await h.disk.cachedData(for: request.imageKey) != nil)
        #expect(try await h.disk.usage().count == 2)
    }

    @Test func aStaleEntryWithAnETagIsRevalidatedAndA304DownloadsNothing() async throws {
        let h = PipelineHarness()
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url,
                       headers: ["ETag": "\"v1\""], freshness: HTTPFreshness(maxAge: 60))
        _ = try await h.pipeline.image(for: h.request())
        h.clock.advance(by: 30)
        #expect(try await h.anotherProcess().pipeline.image(for: h.request()).tier == .disk, "fresh: no request")
        #expect(h.loader.loadCount == 1)
        h.clock.advance(by: 31)
        let revalidated = try await h.anotherProcess().pipeline.image(for: h.request())
        #expect(revalidated.tier == .disk)
        #expect(h.loader.loadCount == 2)
        #expect(h.loader.requests.last?.validators?.etag == "\"v1\"", "a conditional GET")
        let metadata = try #require(try await h.disk.cachedData(for: h.request().dataKey)).metadata
        #expect(metadata.freshUntil == h.clock.now.addingTimeInterval(60), "the 304 refreshed the freshness")
        #expect(try await h.anotherProcess().pipeline.image(for: h.request()).tier == .disk)
        #expect(h.loader.loadCount == 2, "fresh again: no request")
    }

    @Test func aStaleEntryWhoseSourceChangedIsReplaced() async throws {
        let h = PipelineHarness()
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url,
                       headers: ["ETag": "\"v1\""], freshness: HTTPFreshness(maxAge: 60))
        _ = try await h.pipeline.image(for: h.request())
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size, value: 0x20), at: PipelineHarness.url,
                       headers: ["ETag": "\"v2\""], freshness: HTTPFreshness(maxAge: 60))
        h.clock.advance(by: 61)
        let response = try await h.anotherProcess().pipeline.image(for: h.request())
        #expect(response.tier == .network && response.image.pixels.first == 0x20)
        #expect(try await h.disk.cachedData(for: h.request().dataKey)?.metadata.etag == "\"v2\"")
    }

    @Test func aStaleEntryIsServedWhenTheOriginFails() async throws {
        let h = PipelineHarness()
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url, freshness: HTTPFreshness(maxAge: 1))
        _ = try await h.pipeline.image(for: h.request())
        h.loader.serve(Data("down".utf8), at: PipelineHarness.url, status: 503)
        h.clock.advance(by: 5)
        #expect(try await h.anotherProcess().pipeline.image(for: h.request()).tier == .disk)
        #expect(h.loader.loadCount == 2)
    }

    @Test func noStoreResponsesNeverReachTheDisk() async throws {
        let h = PipelineHarness(diskStorage: .originalAndProcessed(.png))
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url, freshness: HTTPFreshness(noStore: true))
        let response = try await h.pipeline.image(for: h.request(Self.thumb))
        #expect(response.tier == .network)
        #expect(try await h.disk.usage() == .zero)
        #expect(try await h.pipeline.image(for: h.request(Self.thumb)).tier == .memory, "memory still holds it")
    }
}

@Suite("ImagePipeline keys and invalidation")
struct ImagePipelineKeyTests {
    @Test func signedURLTokensAreLeftOutOfTheKey() async throws {
        let h = PipelineHarness(urlNormalization: URLNormalization(ignoredQueryParameters: URLNormalization.signedURLParameters))
        let a = URL(string: "https://images.example/p.ospf?w=1&X-Amz-Signature=aaa&X-Amz-Date=1#top")!
        let b = URL(string: "https://images.example/p.ospf?w=1&x-amz-signature=bbb&X-Amz-Date=2")!
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: a)
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: b)
        #expect(try await h.pipeline.image(for: ImageRequest(url: a)).tier == .network)
        #expect(try await h.pipeline.image(for: ImageRequest(url: b)).tier == .memory)
        #expect(h.pipeline.keys(for: ImageRequest(url: b)).data.source == "https://images.example/p.ospf?w=1")
        let plain = URLNormalization()
        #expect(plain.cacheIdentifier(for: a) == "https://images.example/p.ospf?w=1&X-Amz-Signature=aaa&X-Amz-Date=1", "only the fragment goes")
    }

    @Test func invalidatingASourceRemovesEveryVariantEverywhere() async throws {
        let h = PipelineHarness(diskStorage: .originalAndProcessed(.png))
        let other = URL(string: "https://images.example/other.ospf")!
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: other)
        for request in [h.request(), h.request(PixelSize(width: 8, height: 8)), h.request(processors: [InvertProcessor()]), ImageRequest(url: other)] {
            _ = try await h.pipeline.image(for: request)
        }
        #expect(h.memory.usage.count == 4)
        try await h.pipeline.invalidate(.url(PipelineHarness.url))
        #expect(h.memory.usage.count == 1 && h.memory.image(for: ImageRequest(url: other).imageKey) != nil)
        #expect(try await h.disk.usage().count == 1)
        #expect(try await h.disk.cachedData(for: ImageRequest(url: other).dataKey) != nil)
        #expect(try await h.pipeline.image(for: h.request()).tier == .network)
    }
}

@Suite("Prefetcher and batch loader")
struct PrefetchAndBatchTests {
    /// Shared loads are cancelled once their last caller has left, a moment after it returns.
    static func waitForCancellations(_ count: Int, of loader: MockDataLoader) async throws {
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(120))
        while loader.cancellationCount < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(loader.cancellationCount == count)
    }

    static func urls(_ count: Int) -> [URL] { (0..<count).map { URL(string: "https://images.example/\($0).ospf")! } }

    @Test func prefetchReportsCompletedFailedAndSkipped() async throws {
        let h = PipelineHarness()
        let urls = Self.urls(5)
        for url in urls.prefix(4) { h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url) }  // the fifth is a 404
        _ = try await h.pipeline.image(for: ImageRequest(url: urls[0]))  // already cached
        let prefetcher = ImagePrefetcher(pipeline: h.pipeline, maxConcurrentLoads: 2)
        var last = ImagePrefetcher.Progress()
        var seen = 0
        for await progress in prefetcher.prefetch(urls.map { ImageRequest(url: $0) }) {
            #expect(progress.finished >= seen)
            seen = progress.finished
            last = progress
        }
        #expect(last == ImagePrefetcher.Progress(completed: 3, failed: 1, skipped: 1, total: 5))
        #expect(h.loader.requests.dropFirst().allSatisfy { $0.priority == .low }, "prefetches run at low priority")
        #expect(h.loader.loadCount == 1 + 4)
        // A second prefetch finds everything on disk and skips it.
        var again = ImagePrefetcher.Progress()
        for await progress in prefetcher.prefetch(urls.prefix(4).map { ImageRequest(url: $0) }) { again = progress }
        #expect(again.skipped == 4 && h.loader.loadCount == 5)
    }

    @Test func warmingMemoryLoadsDiskEntriesIntoMemory() async throws {
        let h = PipelineHarness()
        _ = try await h.pipeline.image(for: h.request())
        let other = h.anotherProcess()
        var last = ImagePrefetcher.Progress()
        for await progress in ImagePrefetcher(pipeline: other.pipeline, warmsMemory: true).prefetch([h.request()]) { last = progress }
        #expect(last.completed == 1 && other.memory.usage.count == 1)
    }

    @Test func cancellingAPrefetchStopsEveryLoad() async throws {
        let h = PipelineHarness(holding: true)
        let urls = Self.urls(10)
        for url in urls { h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url) }
        let prefetcher = ImagePrefetcher(pipeline: h.pipeline, maxConcurrentLoads: 3)
        let stream = prefetcher.prefetch(urls.map { ImageRequest(url: $0) })
        try await h.waitForLoads(3)
        prefetcher.cancel()
        var last = ImagePrefetcher.Progress()
        for await progress in stream { last = progress }
        #expect(last.completed == 0 && last.finished <= 10)
        #expect(h.loader.loadCount == 3, "no load started after the cancel")
        try await Self.waitForCancellations(3, of: h.loader)
    }

    @Test func eachModeKeepsRequestOrderAndIsolatesFailures() async throws {
        let h = PipelineHarness()
        let urls = Self.urls(6)
        for (i, url) in urls.enumerated() where i != 2 {
            h.loader.serve(FakeImageCodec.encodedSolid(PixelSize(width: 10 + i, height: 10)), at: url)
        }
        let results = await ImageBatchLoader(provider: h.pipeline, maxConcurrentLoads: 3).loadEach(urls.map { ImageRequest(url: $0) })
        for (i, result) in results.enumerated() {
            if i == 2 {
                #expect(throws: ImagePipeline.Error.self) { try result.get() }
            } else {
                #expect(try result.get().image.width == 10 + i, "result \(i) in request order")
            }
        }
    }

    @Test func allOrNothingThrowsTheFailureAndCancelsTheRest() async throws {
        let h = PipelineHarness()
        let urls = Self.urls(5)
        for url in urls.prefix(4) { h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url, held: true) }
        // The fifth (a 404) fails at once while the four photos wait.
        await #expect(throws: ImagePipeline.Error.self) {
            _ = try await ImageBatchLoader(provider: h.pipeline).loadAll(urls.map { ImageRequest(url: $0) })
        }
        try await Self.waitForCancellations(4, of: h.loader)  // the waiting loads were cancelled
        for url in urls.prefix(4) { h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url) }
        let all = try await ImageBatchLoader(provider: h.pipeline).loadAll(urls.prefix(4).map { ImageRequest(url: $0) })
        #expect(all.count == 4)
    }

    @Test func prefetchesThatEndAtOnceLeaveNothingBehind() async throws {
        let h = PipelineHarness()
        let prefetcher = ImagePrefetcher(pipeline: h.pipeline)
        for _ in 0..<2_000 {
            for await _ in prefetcher.prefetch([]) {}
        }
        // The task removes its entry after finishing the stream: give the last one a moment.
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(10))
        while prefetcher.activePrefetches > 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(prefetcher.activePrefetches == 0)
    }
}
