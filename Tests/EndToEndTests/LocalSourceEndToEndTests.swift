import Foundation
import Osprey
import OspreyTesting
import Testing

/// The default pipeline (as `OspreyConfiguration` builds it) on `file:` and `data:` URLs,
/// and on a format of the test's own, registered from outside the codec module.
@Suite("Local sources and added decoders through the pipeline")
struct LocalSourceEndToEndTests {
    @Test func fileAndDataURLsLoadAtSizeAndAreNotKeptOnDisk() async throws {
        let folder = try TemporaryFolder.make("local")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pipeline, _, disk) = try OspreyConfiguration(cacheDirectory: folder.appendingPathComponent("cache")).makeParts()
        defer { disk?.close() }
        let file = folder.appendingPathComponent("photo.jpg")
        try Data(contentsOf: Corpus.file("photos/jolla.jpg")).write(to: file)
        let request = { (url: URL) in
            ImageRequest(url: url, targetSize: PixelSize(width: 200, height: 200), contentMode: .fill, processors: [.blur(radius: 2)])
        }
        let fromFile = try await pipeline.image(for: request(file))
        #expect(fromFile.image.size == PixelSize(width: 200, height: 200))
        let png = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png"))
        let fromData = try await pipeline.image(for: request(URL(string: "data:image/png;base64," + png.base64EncodedString())!))
        #expect(fromData.image.size == PixelSize(width: 32, height: 32), "never enlarged")
        let usage = try await disk?.usage()
        #expect(usage?.count == 0, "neither is copied into the disk cache")
        // A file changed in place is noticed by its size and time, not served from memory.
        try png.write(to: file)
        let changed = try await pipeline.image(for: request(file))
        #expect(changed.image.size == PixelSize(width: 32, height: 32) && changed.tier != .memory)
        await #expect(throws: ImagePipeline.Error.dataLoadingFailed(.fileNotFound(url: folder.appendingPathComponent("gone.jpg").absoluteString))) {
            try await pipeline.image(for: request(folder.appendingPathComponent("gone.jpg")))
        }
    }

    @Test func aPlaceholderComesFromASmallDecodeWhateverTheRequestAsks() async throws {
        let folder = try TemporaryFolder.make("placeholder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pipeline, _, disk) = try OspreyConfiguration(cacheDirectory: folder.appendingPathComponent("cache")).makeParts()
        defer { disk?.close() }
        let photo = try Corpus.file("photos/jolla.jpg")
        let request = ImageRequest(url: photo, targetSize: PixelSize(width: 800, height: 800), processors: [.blur(radius: 8)])
        let placeholder = try await pipeline.placeholder(for: request, blurHashComponents: (5, 4))
        let expectedLength = 6 + 2 * (5 * 4 - 1)
        #expect(placeholder.blurHash.count == expectedLength, "a 5 × 4 BlurHash")
        let hashBytes = placeholder.thumbHash.count
        #expect(hashBytes >= 20)
        #expect(placeholder.average.alpha == 255)
        // The same as the placeholder of the codec's own 100 px decode, give or take a level.
        let small = try ImageCodec().decode(.file(path: photo.path), options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100)))
        let direct = ImagePlaceholder(small, blurHashComponents: (5, 4))
        let pairs: [(UInt8, UInt8)] = [(placeholder.average.red, direct.average.red), (placeholder.average.green, direct.average.green),
                                       (placeholder.average.blue, direct.average.blue)]
        for (a, b) in pairs {
            let difference = abs(Int(a) - Int(b))
            #expect(difference <= 2)
        }
    }

    @Test func aPreviewIsNeverKeptWhereADecodeIsLookedUp() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-preview-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (pipeline, _, disk) = try OspreyConfiguration(cacheDirectory: folder).makeParts()
        defer { disk?.close() }
        let size = PixelSize(width: 100, height: 100)
        // Progressive: the preview comes from its first scans.
        let request = ImageRequest(url: try Corpus.file("photos/craft-beer.jpg"), targetSize: size)
        let preview = try await pipeline.previewImage(for: request, fitting: size)
        #expect(preview.size == PixelSize(width: 100, height: 67))
        #expect(pipeline.cachedImage(for: request) == nil, "the preview is not the image of that size")
        let decoded = try await pipeline.image(for: request)
        #expect(decoded.tier != .memory && decoded.image.pixels != preview.pixels, "\(decoded.tier)")
        #expect(ReferenceDecoder.psnr(decoded.image.pixels, preview.pixels) >= 40)
        // Once the image of that size is in memory, it is the preview.
        #expect(try await pipeline.previewImage(for: request, fitting: size).pixels == decoded.image.pixels)
    }

    /// "OSPR", a width and a height byte, then RGB bytes: a format no decoder of Osprey's knows.
    struct TinyFormatDecoder: ImageDecoding {
        static let format = ImageFormat(rawValue: "ospr")

        func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
            guard prefix.starts(with: Data("OSPR".utf8)) else { throw .unsupportedFormat(Self.format, detail: "not OSPR") }
            return Self.format
        }

        func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
            guard case .data(let data) = input, data.count >= 6 else { throw .corrupt(Self.format, detail: "no header") }
            let bytes = [UInt8](data)
            let (width, height) = (Int(bytes[4]), Int(bytes[5]))
            guard bytes.count == 6 + width * height * 3 else { throw .corrupt(Self.format, detail: "pixels cut short") }
            guard let image = try? Image(width: width, height: height, pixelFormat: .rgb8, pixels: Array(bytes[6...])) else {
                throw .corrupt(Self.format, detail: "no pixels")
            }
            return options.targetSize.map { Resampler.resize(image, to: image.size.scaled(toFit: $0, mode: options.contentMode)) } ?? image
        }
    }

    @Test func aDecoderOfAnAppsOwnFormatPlugsIn() async throws {
        var configuration = OspreyConfiguration()
        configuration.decoders = [TinyFormatDecoder()]
        let (pipeline, _, _) = try configuration.makeParts()
        let pixels: [UInt8] = (0..<(8 * 4)).flatMap { _ in [200, 10, 30] as [UInt8] }
        let file = Data("OSPR".utf8) + Data([8, 4] as [UInt8]) + Data(pixels)
        let url = URL(string: "data:application/x-ospr;base64," + file.base64EncodedString())!
        let response = try await pipeline.image(for: ImageRequest(url: url, targetSize: PixelSize(width: 4, height: 4)))
        #expect(response.image.size == PixelSize(width: 4, height: 2))
        #expect(Array(response.image.pixels.prefix(3)) == [200, 10, 30])
        #expect(throws: ImageDecodingError.self, "not without registering it") { try ImageCodec().detectFormat(of: file.prefix(16)) }
    }
}
