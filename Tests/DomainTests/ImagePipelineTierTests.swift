import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("ImagePipeline tiers")
struct ImagePipelineTierTests {
    @Test func firstLoadComesFromTheNetworkAndFillsBothCaches() async throws {
        // Given an empty pipeline
        let h = PipelineHarness()
        // When an image is asked for
        let response = try await h.pipeline.image(for: h.request())
        // Then it came from the network, once, and both caches hold it
        #expect(response.tier == .network)
        #expect(response.image.size == PipelineHarness.size)
        #expect(h.loader.loadCount == 1)
        #expect(h.memory.image(for: h.request().imageKey) == response.image)
        let stored = try #require(try await h.disk.cachedData(for: h.request().dataKey))
        #expect(stored.data == FakeImageCodec.encodedSolid(PipelineHarness.size))
        #expect(stored.metadata.format == FakeImageCodec.format)
        #expect(stored.metadata.sourceURL == PipelineHarness.url.absoluteString)
    }

    @Test func repeatedRequestIsAMemoryHit() async throws {
        let h = PipelineHarness()
        let first = try await h.pipeline.image(for: h.request())
        let second = try await h.pipeline.image(for: h.request())
        #expect(second.tier == .memory)
        #expect(second.image == first.image)
        #expect(h.loader.loadCount == 1)
    }

    @Test func afterMemoryIsClearedTheDiskAnswersWithoutDownloading() async throws {
        let h = PipelineHarness()
        _ = try await h.pipeline.image(for: h.request())
        h.memory.removeAll()
        let response = try await h.pipeline.image(for: h.request())
        #expect(response.tier == .disk)
        #expect(response.image.size == PipelineHarness.size)
        #expect(h.loader.loadCount == 1)
        #expect(h.memory.usage.count == 1, "the disk hit filled memory again")
    }

    @Test func threeTargetSizesCostOneDownload() async throws {
        let h = PipelineHarness()
        let sizes = [PixelSize(width: 32, height: 32), PixelSize(width: 16, height: 16), PixelSize(width: 8, height: 100)]
        var tiers: [ImageResponse.Tier] = []
        for size in sizes { tiers.append(try await h.pipeline.image(for: h.request(size)).tier) }
        #expect(tiers == [.network, .disk, .disk])
        #expect(h.loader.loadCount == 1)
        #expect(try await h.pipeline.image(for: h.request(sizes[0])).image.size == PixelSize(width: 32, height: 24))
        #expect(h.memory.usage.count == 3, "each size is its own memory entry")
    }

    @Test func processorVariantsAreCachedApart() async throws {
        let h = PipelineHarness()
        let plain = try await h.pipeline.image(for: h.request())
        let inverted = try await h.pipeline.image(for: h.request(processors: [InvertProcessor()]))
        let cropped = try await h.pipeline.image(for: h.request(processors: [CornerCropProcessor(size: PixelSize(width: 4, height: 4))]))
        #expect(plain.image.pixels.first == 0x80 && inverted.image.pixels.first == 0x7F)
        #expect(cropped.image.size == PixelSize(width: 4, height: 4))
        #expect(inverted.tier == .disk && cropped.tier == .disk)
        #expect(h.memory.usage.count == 3)
    }

    @Test func reloadIgnoringCachedDataDownloadsAgain() async throws {
        let h = PipelineHarness()
        _ = try await h.pipeline.image(for: h.request())
        let response = try await h.pipeline.image(for: h.request(options: .reloadIgnoringCachedData))
        #expect(response.tier == .network)
        #expect(h.loader.loadCount == 2)
    }

    @Test func cacheOnlyMissIsATypedError() async throws {
        let h = PipelineHarness()
        await #expect(throws: ImagePipeline.Error.notCached(h.request().dataKey)) {
            try await h.pipeline.image(for: h.request(options: .cacheOnly))
        }
        #expect(h.loader.loadCount == 0)
    }

    @Test func diskWritesCanBeTurnedOffPerRequest() async throws {
        let h = PipelineHarness()
        _ = try await h.pipeline.image(for: h.request(options: .disableDiskCacheWrites))
        #expect(try await h.disk.usage() == .zero)
    }

    @Test func noStoreResponsesNeverReachTheDisk() async throws {
        let h = PipelineHarness()
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url, freshness: HTTPFreshness(noStore: true))
        let response = try await h.pipeline.image(for: h.request())
        #expect(response.tier == .network)
        #expect(try await h.disk.usage() == .zero)
    }

    @Test func freshnessAndValidatorsAreStoredWithTheBytes() async throws {
        let h = PipelineHarness()
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url,
                       headers: ["ETag": "\"v1\"", "Last-Modified": "Mon, 01 Jan 2024 00:00:00 GMT"],
                       freshness: HTTPFreshness(maxAge: 600))
        _ = try await h.pipeline.image(for: h.request())
        let metadata = try #require(try await h.disk.cachedData(for: h.request().dataKey)).metadata
        #expect(metadata.etag == "\"v1\"")
        #expect(metadata.lastModified == "Mon, 01 Jan 2024 00:00:00 GMT")
        #expect(metadata.freshUntil == h.clock.now.addingTimeInterval(600))
    }

    @Test func fileSourcesAreDecodedInPlace() async throws {
        let h = PipelineHarness()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-\(UUID()).ospf").path
        try FakeImageCodec.encodedSolid(PixelSize(width: 10, height: 20)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = ImageRequest(source: .file(path: path), targetSize: PixelSize(width: 5, height: 5))
        let response = try await h.pipeline.image(for: request)
        #expect(response.tier == .file)
        #expect(response.image.size == PixelSize(width: 3, height: 5))
        #expect(h.loader.loadCount == 0)
        #expect(try await h.disk.usage() == .zero, "files are never copied to the disk cache")
        #expect(try await h.pipeline.image(for: request).tier == .memory)
    }

    @Test func customCacheKeyReplacesTheURL() async throws {
        let h = PipelineHarness()
        var request = h.request()
        request.customCacheKey = "avatar:42"
        _ = try await h.pipeline.image(for: request)
        #expect(try await h.disk.containsData(for: CacheKey(source: "avatar:42")))
        #expect(h.memory.image(for: CacheKey(source: "avatar:42")) != nil)
    }

    @Test func theCacheIsReachedByRequestThroughThePipelinesKeys() async throws {
        let h = PipelineHarness()
        let small = h.request(PixelSize(width: 10, height: 10)), large = h.request(PixelSize(width: 20, height: 20))
        _ = try await h.pipeline.image(for: small)
        _ = try await h.pipeline.image(for: large)
        #expect(h.pipeline.cache.cachedImage(for: small) != nil && h.pipeline.cache.cachedImage(for: large) != nil)
        #expect(await h.pipeline.cache.containsData(for: small))
        try await h.pipeline.cache.removeCachedImage(for: small)
        #expect(h.pipeline.cache.cachedImage(for: small) == nil, "that variant left memory")
        #expect(h.pipeline.cache.cachedImage(for: large) != nil, "another variant stays")
        #expect(await !h.pipeline.cache.containsData(for: small), "and its bytes left the disk")
        _ = try await h.pipeline.image(for: large)
        try await h.pipeline.cache.removeAll(disk: false)
        #expect(h.pipeline.cache.cachedImage(for: large) == nil)
        #expect(h.memory.usage.count == 0)
    }
}
