import Foundation
import Osprey
import OspreyTesting
import Testing

/// Responsive images ask for many sizes of one photo: after the first, each size the
/// photo's reduced decode covers is resampled from it, as a decode at that size would be.
@Suite("Sizes of one photo from one reduced decode")
struct ReductionEndToEndTests {
    let origin: TestHTTPServer
    let pipeline: ImagePipeline

    init() throws {
        origin = try TestHTTPServer()
        for name in ["photos/jolla.jpg", "exif-orientation/Portrait_6.jpg", "pngsuite/basn2c16.png"] {
            origin.serve(URL(fileURLWithPath: name).lastPathComponent, try Data(contentsOf: Corpus.file(name)), headers: ["ETag": "\"v1\""])
        }
        var configuration = OspreyConfiguration(cacheDirectory: nil)
        configuration.network.addressPolicy = AddressPolicy(allowing: [.loopback])
        configuration.network.maxRetries = 0
        pipeline = try configuration.makePipeline()
    }

    func request(_ name: String, _ width: Int, _ height: Int, _ mode: ContentMode = .fit) -> ImageRequest {
        var request = ImageRequest(url: origin.url("/files/\(name)"), targetSize: PixelSize(width: width, height: height), contentMode: mode)
        // As the server asks: the processed image is not kept, so only the reduction can answer.
        request.options.insert(.disableMemoryCacheWrites)
        return request
    }

    @Test(arguments: ["jolla.jpg", "Portrait_6.jpg"])
    func sizesTheReductionCoversAreMadeFromIt(name: String) async throws {
        defer { origin.stop() }
        let bytes = try Data(contentsOf: Corpus.file(name == "jolla.jpg" ? "photos/jolla.jpg" : "exif-orientation/Portrait_6.jpg"))
        #expect(try await pipeline.image(for: request(name, 300, 300)).tier == .network)
        for (width, height, mode) in [(240, 240, ContentMode.fit), (200, 120, .fill), (0, 150, .fit), (260, 0, .fit)] {
            let options = DecodingOptions(targetSize: PixelSize(width: width, height: height), contentMode: mode)
            let response = try await pipeline.image(for: request(name, width, height, mode))
            #expect(response.tier == .memory, "\(width)x\(height) \(mode) from the reduction")
            #expect(response.source?.etag == "\"v1\"", "the bytes the reduction came from")
            let direct = try ImageCodec().decode(.data(bytes), options: options)
            #expect(response.image.size == direct.size && response.image.pixelFormat == direct.pixelFormat)
            let psnr = ReferenceDecoder.psnr(response.image.pixels, direct.pixels)
            #expect(psnr > 32, "\(width)x\(height) \(mode): \(psnr) dB against a decode at that size")
        }
        #expect(origin.hits("/files/\(name)") == 1)
        // Larger than the reduction: the source is read again, and a larger reduction kept
        // where the DCT can still scale (3264 px by 1/2; 1800 px not at all).
        #expect(try await pipeline.image(for: request(name, 1000, 1000)).tier == .network)
        let next = try await pipeline.image(for: request(name, 900, 900)).tier
        #expect(next == (name == "jolla.jpg" ? .memory : .network))
    }

    /// imgproxy's crop then resize, as the server's geometry does it: from the whole source.
    struct CentreCropResize: ReducibleProcessing {
        var size: PixelSize
        let seen: Locked<[PixelSize]>
        var identifier: String { "centre-half(\(size.width)x\(size.height))" }

        func process(_ image: Image) throws(ImageProcessingError) -> Image { try process(image, sourceSize: image.size) }

        func sufficientSize(forSource source: PixelSize) -> PixelSize {
            let scale = max(Double(size.width) / Double(source.width / 2), Double(size.height) / Double(source.height / 2))
            return PixelSize(width: Int((Double(source.width) * scale).rounded(.up)), height: Int((Double(source.height) * scale).rounded(.up)))
        }

        func process(_ image: Image, sourceSize: PixelSize) throws(ImageProcessingError) -> Image {
            seen.withLock { $0.append(image.size) }
            let half = GravityCrop.crop(image, origin: (image.width / 4, image.height / 4), size: PixelSize(width: image.width / 2, height: image.height / 2))
            return Resampler.resize(half, to: size)
        }
    }

    @Test(arguments: ["jolla.jpg", "Portrait_6.jpg"])
    func aProcessorThatSizesTheImageIsGivenAReducedDecodeAndThenTheReduction(name: String) async throws {
        defer { origin.stop() }
        let bytes = try Data(contentsOf: Corpus.file(name == "jolla.jpg" ? "photos/jolla.jpg" : "exif-orientation/Portrait_6.jpg"))
        let full = try ImageCodec().decode(.data(bytes), options: DecodingOptions())
        let seen = Locked([PixelSize]())
        for (index, size) in [PixelSize(width: 300, height: 200), PixelSize(width: 280, height: 210)].enumerated() {
            var request = ImageRequest(url: origin.url("/files/\(name)"), processors: [CentreCropResize(size: size, seen: seen)])
            request.options.insert(.disableMemoryCacheWrites)
            let response = try await pipeline.image(for: request)
            #expect(response.tier == (index == 0 ? .network : .memory), "the second from the first's reduction")
            let given = try #require(seen.withLock { $0.last })
            #expect(given.width < full.width && given.width >= size.width * 2, "a reduced decode covering the crop: \(given)")
            let direct = try CentreCropResize(size: size, seen: Locked([])).process(full)
            let psnr = ReferenceDecoder.psnr(response.image.pixels, direct.pixels)
            #expect(response.image.size == size && psnr > 32, "\(size): \(psnr) dB against the processor on the full decode")
        }
        #expect(origin.hits("/files/\(name)") == 1)
    }

    @Test func aFormatWithoutAReducedDecodeIsDecodedForEachSize() async throws {
        defer { origin.stop() }
        #expect(try await pipeline.image(for: request("basn2c16.png", 16, 16)).tier == .network)
        #expect(try await pipeline.image(for: request("basn2c16.png", 12, 12)).tier == .network)
    }
}
