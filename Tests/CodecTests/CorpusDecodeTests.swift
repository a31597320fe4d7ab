import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// The JPEG, WebP and photo corpus, with the outcomes `shared/corpus/SOURCES.md` records.
    @Suite("Corpus decoding")
    struct CorpusDecodeTests {
        /// Files libjpeg-turbo 2.1 cannot read: 12-bit and lossless JPEG.
        static let unsupported: Set<String> = ["testorig12.jpg", "monkey12.jpg", "testimgl.jpg"]
        /// Files that end early or have no frame: refused as corrupt rather than shown half grey.
        static let damaged: Set<String> = ["truncated_jpeg.jpg", "truncated.jpg", "corrupt-header.jpg"]
        /// Files over the default 100-megapixel limit.
        static let overLimit: Set<String> = ["giant-image.jpg"]

        static func allImages() throws -> [URL] {
            try CodecTestSupport.images(in: "jpeg", extensions: ["jpg", "jpeg"])
                + CodecTestSupport.images(in: "webp", extensions: ["webp"])
                + CodecTestSupport.images(in: "photos", extensions: ["jpg", "jpeg"])
        }

        @Test func everyFileHasItsRecordedOutcome() throws {
            let files = try Self.allImages()
            #expect(files.count == 29 + 60 + 8)
            for file in files {
                let name = file.lastPathComponent
                let result = Result { () throws(ImageDecodingError) -> Image in
                    try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 256, height: 256)))
                }
                switch result {
                case .success(let image):
                    #expect(!Self.unsupported.contains(name) && !Self.damaged.contains(name) && !Self.overLimit.contains(name), "\(name) decoded")
                    #expect(image.width <= 256 && image.height <= 256 && image.width > 0, "\(name)")
                case .failure(.unsupportedFormat(.jpeg, let detail)):
                    #expect(Self.unsupported.contains(name), "\(name): unsupported \(detail ?? "")")
                case .failure(.tooManyPixels(20_000, 14_000, 100_000_000)):
                    #expect(Self.overLimit.contains(name))
                case .failure(.corrupt(_, let detail)):
                    #expect(Self.damaged.contains(name), "\(name): corrupt \(detail)")
                case .failure(let error):
                    Issue.record("\(name): \(error)")
                }
            }
        }

        @Test func truncatedJPEGsDecodePartiallyWhenAskedAsLibjpegDoes() throws {
            let lenient = ImageCodec(acceptsTruncatedJPEG: true)
            for (name, size) in [("jpeg/pillow/truncated_jpeg.jpg", PixelSize(width: 100, height: 100)),
                                 ("jpeg/sharp/truncated.jpg", PixelSize(width: 2725, height: 2225))] {
                let file = try Corpus.file(name).path
                #expect(throws: ImageDecodingError.self, "\(name) is refused by default") {
                    try CodecTestSupport.codec.decode(.file(path: file), options: DecodingOptions())
                }
                #expect(try lenient.decode(.file(path: file), options: DecodingOptions()).size == size, "\(name)")
            }
            #expect(throws: ImageDecodingError.self, "no frame header: nothing to show") {
                try lenient.decode(.file(path: Corpus.file("jpeg/sharp/corrupt-header.jpg").path), options: DecodingOptions())
            }
        }

        @Test func giantImageDecodesAtASmallSizeOnceTheLimitIsRaised() throws {
            let file = try Corpus.file("jpeg/sharp/giant-image.jpg")
            let codec = ImageCodec(limits: DecodingLimits(maxPixels: 300_000_000))
            let image = try codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 200, height: 200)))
            #expect(image.size == PixelSize(width: 200, height: 140))
            #expect(image.pixelFormat == .gray8)
        }

        @Test func fullSizeJPEGAndWebPMatchTheReferenceDecoder() throws {
            let files = try Self.allImages().filter {
                let name = $0.lastPathComponent
                return !Self.unsupported.contains(name) && !Self.damaged.contains(name) && !Self.overLimit.contains(name)
            }
            let references = try ReferenceDecoder.decode(files, mode: .pillow)
            for file in files {
                let name = file.lastPathComponent
                guard let reference = try? references[file.path]?.get() else {
                    Issue.record("no reference decode for \(name)")
                    continue
                }
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
                #expect(image.width == reference.width && image.height == reference.height, "\(name): \(image.size) vs \(reference.width)x\(reference.height)")
                guard image.width == reference.width && image.height == reference.height else { continue }
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: reference.channels), reference.bytes)
                let cmyk = name.localizedCaseInsensitiveContains("cmyk")
                #expect(psnr >= (cmyk ? 30 : 45), "\(name): PSNR \(psnr) dB")
            }
        }

        @Test func animatedWebPGivesItsFirstFrameAndFrameCount() throws {
            let expected = ["pillow_iss634.webp": 42, "sdwebimage_TestImageAnimated.webp": 8,
                            "sdwebimage_TestImageBlendAnimated.webp": 12, "sharp_rotating-squares.webp": 9]
            for (name, frames) in expected {
                let file = try Corpus.file("webp/animated/\(name)")
                let info = try CodecTestSupport.codec.info(.file(path: file.path))
                #expect(info.frameCount == frames, "\(name)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
                #expect(image.width == info.width && image.height == info.height, "\(name)")
            }
        }
    }
}
