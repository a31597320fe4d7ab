import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("ImagePipeline errors")
struct ImagePipelineErrorTests {
    @Test func httpErrorIsTypedAndNotCached() async throws {
        // Given a source that answers 500
        let h = PipelineHarness()
        let url = URL(string: "https://images.example/broken.ospf")!
        h.loader.serve(Data("oops".utf8), at: url, status: 500)
        let request = ImageRequest(url: url)
        // When it is asked for twice
        for _ in 0..<2 {
            await #expect(throws: ImagePipeline.Error.dataLoadingFailed(.httpStatus(500, url: url.absoluteString))) {
                try await h.pipeline.image(for: request)
            }
        }
        // Then each attempt went to the network: the failure was not cached
        #expect(h.loader.loadCount == 2)
        #expect(h.memory.usage == .zero)
        #expect(try await h.disk.usage() == .zero)
        // And once the source recovers, the image arrives
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url)
        #expect(try await h.pipeline.image(for: request).tier == .network)
    }

    @Test func htmlInsteadOfAnImageIsRefusedBeforeCaching() async throws {
        let h = PipelineHarness()
        let url = URL(string: "https://images.example/login")!
        h.loader.serve(Data("<html><body>Please log in</body></html>".utf8), at: url)
        await #expect(throws: ImagePipeline.Error.decodingFailed(.notAnImage(prefix: "<html><body>Plea"))) {
            try await h.pipeline.image(for: ImageRequest(url: url))
        }
        #expect(try await h.disk.usage() == .zero, "nothing that is not an image reaches the disk")
    }

    @Test func corruptImageIsATypedDecodingError() async throws {
        let h = PipelineHarness()
        let url = URL(string: "https://images.example/truncated.ospf")!
        h.loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size).prefix(100), at: url)
        await #expect(throws: ImagePipeline.Error.self) { try await h.pipeline.image(for: ImageRequest(url: url)) }
        #expect(h.memory.usage == .zero)
    }

    @Test func processorFailureNamesTheProcessor() async throws {
        let h = PipelineHarness()
        let crop = CornerCropProcessor(size: PixelSize(width: 1_000, height: 1_000))
        await #expect(throws: ImagePipeline.Error.processingFailed(
            processor: crop.identifier,
            .invalidParameters(processor: crop.identifier, reason: "crop 1000x1000 does not fit in 64x48")
        )) {
            try await h.pipeline.image(for: h.request(processors: [crop]))
        }
        #expect(h.memory.usage == .zero)
        #expect(try await h.disk.usage().count == 1, "the original bytes were good and stay on disk")
    }

    @Test func unsupportedSchemeIsTyped() async throws {
        let h = PipelineHarness()
        let url = URL(string: "gopher://images.example/a")!
        await #expect(throws: ImagePipeline.Error.dataLoadingFailed(.unsupportedScheme("gopher", url: url.absoluteString))) {
            try await h.pipeline.image(for: ImageRequest(url: url))
        }
    }

    @Test func failingDiskCacheDoesNotFailTheLoad() async throws {
        let h = PipelineHarness()
        await h.disk.failEveryCall(with: .storageFailed(reason: "disk full"))
        let first = try await h.pipeline.image(for: h.request())
        h.memory.removeAll()
        let second = try await h.pipeline.image(for: h.request())
        #expect(first.tier == .network && second.tier == .network)
    }

    @Test func errorsReachEveryCoalescedCaller() async throws {
        let h = PipelineHarness(holding: true)
        let request = ImageRequest(url: URL(string: "https://images.example/missing.ospf")!)
        let callers = (0..<5).map { _ in Task { try await h.pipeline.image(for: request) } }
        try await h.waitForCallers(5, on: request)
        h.loader.gate.open()
        for caller in callers {
            await #expect(throws: ImagePipeline.Error.dataLoadingFailed(.httpStatus(404, url: "https://images.example/missing.ospf"))) {
                try await caller.value
            }
        }
        #expect(h.loader.loadCount == 1)
    }
}
