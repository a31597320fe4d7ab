import Foundation
import OspreyDomain
import OspreyTesting
import Testing

/// Animations through the pipeline: asked for explicitly, processed frame by frame, counted
/// whole by the memory cache, and keyed apart from the still.
@Suite("ImagePipeline animations")
struct ImagePipelineAnimationTests {
    /// The fake codec, returning three frames (the decoded image with 0, 1 and 2 added) when all are asked for.
    struct AnimatingCodec: ImageDecoding {
        func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat { try FakeImageCodec().detectFormat(of: prefix) }

        func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
            let still = try FakeImageCodec().decode(input, options: options)
            guard options.frames == .all else { return still }
            let frames = (0..<3).map { index in
                ImageAnimation.Frame(image: try! Image(width: still.width, height: still.height, pixelFormat: still.pixelFormat,
                                                       pixels: still.pixels.map { $0 &+ UInt8(index) }),
                                     duration: .milliseconds(100 * (index + 1)))
            }
            return Image(animation: ImageAnimation(frames: frames, loopCount: 0))
        }
    }

    func pipeline() -> (ImagePipeline, InMemoryImageCache) {
        let loader = MockDataLoader()
        loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size, value: 10), at: PipelineHarness.url)
        let memory = InMemoryImageCache()
        return (ImagePipeline(configuration: .init(dataLoader: loader, decoder: AnimatingCodec(), imageCache: memory)), memory)
    }

    @Test func everyFrameIsProcessedAndTheMemoryCacheCountsThemAll() async throws {
        let (pipeline, memory) = pipeline()
        var request = ImageRequest(url: PipelineHarness.url, processors: [InvertProcessor()])
        request.frames = .all
        let response = try await pipeline.image(for: request)
        let animation = try #require(response.image.animation)
        #expect(animation.frames.map(\.duration) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        let firstBytes: [UInt8] = animation.frames.map { $0.image.pixels[0] }
        let expected: [UInt8] = [245, 244, 243]
        #expect(firstBytes == expected, "inverted, frame by frame")
        #expect(response.image.pixels == animation.frames[0].image.pixels, "the image is its first frame")
        let frameCost = PipelineHarness.size.area * 4
        #expect(memory.usage.cost == 3 * frameCost)
    }

    @Test func theStillIsTheDefaultAndIsCachedApart() async throws {
        let (pipeline, _) = pipeline()
        var all = ImageRequest(url: PipelineHarness.url)
        all.frames = .all
        let still = try await pipeline.image(for: ImageRequest(url: PipelineHarness.url))
        #expect(still.image.animation == nil)
        #expect(all.imageKey != ImageRequest(url: PipelineHarness.url).imageKey)
        let animated = try await pipeline.image(for: all)
        #expect(animated.image.animation?.frames.count == 3)
    }
}
