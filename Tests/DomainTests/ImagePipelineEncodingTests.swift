import Foundation
import OspreyDomain
import OspreyTesting
import Testing

/// The encoded stage: `ImagePipeline.encodedImage(for:as:)`.
@Suite("ImagePipeline encoded stage")
struct ImagePipelineEncodingTests {
    /// The fake codec, counting its decodes and encodes.
    final class CountingCodec: ImageDecoding, ImageEncoding, @unchecked Sendable {
        let codec = FakeImageCodec()
        let counts = Locked((decodes: 0, encodes: 0))
        var capabilities: [EncoderCapabilities] { codec.capabilities }
        func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat { try codec.detectFormat(of: prefix) }
        func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
            counts.withLock { $0.decodes += 1 }
            return try codec.decode(input, options: options)
        }
        func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
            counts.withLock { $0.encodes += 1 }
            return try codec.encode(image, options: options)
        }
    }

    static func pipeline(_ loader: MockDataLoader, _ codec: CountingCodec, disk: InMemoryDataCache, memory: (any DataCaching)?) -> ImagePipeline {
        ImagePipeline(configuration: .init(dataLoader: loader, decoder: codec, dataCache: disk, memoryDataCache: memory, encoder: codec))
    }

    @Test func tenConcurrentRequestsForOneNewAnswerCauseOneDecodeAndOneEncode() async throws {
        // Given a loader that holds its load until the test lets it go
        let loader = MockDataLoader(holding: true)
        loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url)
        let codec = CountingCodec()
        let pipeline = Self.pipeline(loader, codec, disk: InMemoryDataCache(), memory: InMemoryDataCache())
        let request = ImageRequest(url: PipelineHarness.url, targetSize: PixelSize(width: 32, height: 32))
        let encoding = OutputEncoding(format: .fixed(.webp), quality: 70)
        // When ten callers ask for the same new answer at once
        let answers = try await withThrowingTaskGroup(of: EncodedImage.self) { group in
            for _ in 0..<10 { group.addTask { try await pipeline.encodedImage(for: request, as: encoding) } }
            let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(60))
            while await pipeline.waitingCallers(for: request, as: encoding) < 10, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            loader.gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then one download, one decode and one encode served them all
        #expect(answers.count == 10 && Set(answers.map(\.data)).count == 1 && answers.allSatisfy { $0.format == .webp })
        #expect(codec.counts.withLock { $0 } == (decodes: 1, encodes: 1))
        #expect(loader.loadCount == 1)
        #expect(await pipeline.startedLoads().encodes == 1)
    }

    @Test func anAnswerIsKeptInMemoryAndOnDiskAndSentAsKept() async throws {
        let loader = MockDataLoader()
        loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: PipelineHarness.url)
        let codec = CountingCodec()
        let disk = InMemoryDataCache()
        let pipeline = Self.pipeline(loader, codec, disk: disk, memory: InMemoryDataCache())
        let request = ImageRequest(url: PipelineHarness.url, targetSize: PixelSize(width: 16, height: 16))
        let encoding = OutputEncoding(format: .fixed(.png))
        let made = try await pipeline.encodedImage(for: request, as: encoding)
        #expect(made.keptIn == nil && made.imageTier == .network && made.size == PixelSize(width: 16, height: 12))
        let again = try await pipeline.encodedImage(for: request, as: encoding)
        #expect(again.keptIn == .memory && again.data == made.data && again.entityTag == made.entityTag)
        // A new process over the same disk: the answer read from disk, not made again.
        let restarted = Self.pipeline(loader, codec, disk: disk, memory: InMemoryDataCache())
        let kept = try await restarted.encodedImage(for: request, as: encoding)
        #expect(kept.keptIn == .disk && kept.data == made.data && kept.entityTag == made.entityTag)
        #expect(codec.counts.withLock { $0 } == (decodes: 1, encodes: 1))
        // Another encoding is another answer.
        let webp = try await pipeline.encodedImage(for: request, as: OutputEncoding(format: .fixed(.webp)))
        #expect(webp.keptIn == nil && webp.format == .webp && codec.counts.withLock { $0.encodes } == 2)
    }

    @Test func theFormatIsTheFirstWhoseEncoderCarriesTheImage() throws {
        let capabilities = { (format: ImageFormat) in FakeImageCodec().capabilities(for: format) }
        let opaque = TestImages.solid(PixelSize(width: 2, height: 2), format: .rgb8)
        let alpha = TestImages.solid(PixelSize(width: 2, height: 2))
        let animated = Image(animation: ImageAnimation(frames: [.init(image: opaque, duration: .milliseconds(50)),
                                                                 .init(image: opaque, duration: .milliseconds(50))], loopCount: 0))
        let choice = OutputEncoding(format: .firstFitting([.avif, .jpeg, .webp, .png]))
        #expect(choice.format(for: opaque, source: nil, capabilities: capabilities) == .avif)
        #expect(choice.format(for: animated, source: nil, capabilities: capabilities) == .webp, "AVIF writes stills here")
        let fallbacks = OutputEncoding(format: .firstFitting([.jpeg, .png], keepingSource: [.png]))
        #expect(fallbacks.format(for: alpha, source: nil, capabilities: capabilities) == .png, "JPEG has no alpha")
        #expect(fallbacks.format(for: opaque, source: .png, capabilities: capabilities) == .png, "the source's own, listed")
        #expect(fallbacks.format(for: opaque, source: .gif, capabilities: capabilities) == .jpeg)
    }
}
