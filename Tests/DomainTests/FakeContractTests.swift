import Foundation
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

/// Every fake passes the contract of the protocol it stands in for, and so do the
/// implementations that live in Domain itself (the policies and the pipeline).
@Suite("Contracts")
struct FakeContractTests {
    @Test("InMemoryImageCache passes the ImageCaching contract", arguments: ImageCachingContract.Check.allCases)
    func imageCache(_ check: ImageCachingContract.Check) async throws {
        try await ImageCachingContract { cost, count in InMemoryImageCache(costLimit: cost, countLimit: count) }.run(check)
    }

    @Test("InMemoryDataCache passes the DataCaching contract", arguments: DataCachingContract.Check.allCases)
    func dataCache(_ check: DataCachingContract.Check) async throws {
        try await DataCachingContract { limit in InMemoryDataCache(sizeLimit: limit) }.run(check)
    }

    /// All but two checks that ask one cache of a tiered one. `readRefreshesRecency`: each
    /// tier keeps its own recency, and a local hit does not reach the shared tier (that would
    /// cost a round trip to Redis on every hit), so an entry read recently can be the shared
    /// tier's next to go. `staysConsistentUnderConcurrentTasks` ends by matching `usage()`
    /// (the local tier's: what this machine holds) against every key `containsData` finds in
    /// either tier; the part of it about entries reading back whole is kept in the check
    /// run by the fakes and the real caches.
    @Test("TieredDataCache passes the DataCaching contract",
          arguments: DataCachingContract.Check.allCases.filter { ![.readRefreshesRecency, .staysConsistentUnderConcurrentTasks].contains($0) })
    func tieredCache(_ check: DataCachingContract.Check) async throws {
        // Both tiers hold the same limit, as a fleet's disk and Redis are each bounded.
        try await DataCachingContract { limit in
            TieredDataCache(local: InMemoryDataCache(sizeLimit: limit), shared: InMemoryDataCache(sizeLimit: limit))
        }.run(check)
    }

    @Test("MockDataLoader passes the DataLoading contract", arguments: DataLoadingContract.Check.allCases)
    func dataLoader(_ check: DataLoadingContract.Check) async throws {
        try await DataLoadingContract {
            let loader = MockDataLoader()
            let base = URL(string: "http://127.0.0.1:9/")!
            let body = DataCachingContract.bytes(300_000, seed: 1)
            loader.serve(body, at: base.appendingPathComponent("ok"))
            loader.serve(body, at: base.appendingPathComponent("slow"), held: true)
            return .init(loader: loader, okURL: base.appendingPathComponent("ok"), okBody: body,
                         notFoundURL: base.appendingPathComponent("missing"), slowURL: base.appendingPathComponent("slow"))
        }.run(check)
    }

    @Test("FakeImageCodec passes the ImageDecoding contract", arguments: ImageDecodingContract.Check.allCases)
    func decoder(_ check: ImageDecodingContract.Check) throws {
        let valid = [PixelSize(width: 64, height: 48), PixelSize(width: 7, height: 300), PixelSize(width: 1, height: 1)].map {
            ImageDecodingContract.Sample(name: "solid \($0)", input: .data(FakeImageCodec.encodedSolid($0)), size: $0)
        }
        let good = FakeImageCodec.encodedSolid(PixelSize(width: 10, height: 10))
        let invalid: [(name: String, input: ImageInput)] = [
            ("truncated", .data(good.prefix(50))),
            ("bad magic", .data(Data("OSPX".utf8) + good.dropFirst(4))),
            ("missing file", .file(path: "/nonexistent/osprey/image.ospf")),
        ]
        try ImageDecodingContract(fixture: .init(decoder: FakeImageCodec(), valid: valid, invalid: invalid)).run(check)
    }

    @Test("The fake processors pass the ImageProcessing contract", arguments: ImageProcessingContract.Check.allCases)
    func processors(_ check: ImageProcessingContract.Check) throws {
        let sizes = [PixelSize(width: 4, height: 4), PixelSize(width: 10, height: 2)]
        func make() -> [any ImageProcessing] { [InvertProcessor()] + sizes.map { CornerCropProcessor(size: $0) } }
        let input = TestImages.gradient(PixelSize(width: 16, height: 9))
        try ImageProcessingContract(fixture: .init(variants: make(), remade: make(), input: input, expectedSizes: [input.size] + sizes)).run(check)
    }

    @Test("FakeCachePolicy passes the CachePolicy contract", arguments: CachePolicyContract.Check.allCases)
    func fakePolicy(_ check: CachePolicyContract.Check) throws {
        try CachePolicyContract(policy: FakeCachePolicy(timeToLive: 3_600, maxCount: 50)).run(check)
    }

    @Test("Domain's policies pass the CachePolicy contract", arguments: CachePolicyContract.Check.allCases)
    func domainPolicies(_ check: CachePolicyContract.Check) throws {
        let policies: [any CachePolicy] = [
            LRULimitPolicy(costLimit: 300 << 20),
            LRULimitPolicy(costLimit: 256 << 20, countLimit: 50, trimRatio: 0.7),
            ExpiryPolicy(.sinceLastAccess(300)),
            ExpiryPolicy(.sinceCreation(7 * 86_400)),
            ExpiryPolicy(.never),
            CompositeCachePolicy(LRULimitPolicy(costLimit: 1 << 20, countLimit: 60, trimRatio: 0.7), ExpiryPolicy(.sinceLastAccess(3_600))),
        ]
        for policy in policies { try CachePolicyContract(policy: policy).run(check) }
    }

    @Test("FakeImageProvider passes the ImageProviding contract", arguments: ImageProvidingContract.Check.allCases)
    func fakeProvider(_ check: ImageProvidingContract.Check) async throws {
        try await ImageProvidingContract {
            let ok = ImageRequest(url: URL(string: "https://a.example/ok")!)
            let slow = ImageRequest(url: URL(string: "https://a.example/slow")!)
            let image = TestImages.solid(PixelSize(width: 3, height: 2))
            let fast = FakeImageProvider(images: [ok.imageKey: image])
            let provider = SlowForOneRequest(fast: fast, slow: FakeImageProvider(images: [slow.imageKey: image], delay: .seconds(300)), slowKey: slow.imageKey)
            return .init(provider: provider, okRequest: ok, okSize: image.size,
                         failingRequest: ImageRequest(url: URL(string: "https://a.example/missing")!), slowRequest: slow)
        }.run(check)
    }

    @Test("ImagePipeline built from fakes passes the ImageProviding contract", arguments: ImageProvidingContract.Check.allCases)
    func pipeline(_ check: ImageProvidingContract.Check) async throws {
        try await ImageProvidingContract {
            let h = PipelineHarness()
            let slowURL = URL(string: "https://images.example/slow.ospf")!
            h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: slowURL, held: true)
            return .init(provider: h.pipeline, okRequest: h.request(), okSize: PipelineHarness.size,
                         failingRequest: ImageRequest(url: URL(string: "https://images.example/missing")!),
                         slowRequest: ImageRequest(url: slowURL))
        }.run(check)
    }
}

/// Routes one key to a slow provider and the rest to a fast one.
private struct SlowForOneRequest: ImageProviding {
    let fast: FakeImageProvider
    let slow: FakeImageProvider
    let slowKey: CacheKey

    func image(for request: ImageRequest) async throws -> ImageResponse {
        try await (request.imageKey == slowKey ? slow : fast).image(for: request)
    }
}
