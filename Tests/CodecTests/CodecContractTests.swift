import Foundation
import OspreyCodec
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// The real decoders pass the same contract as the fake.
    @Suite("Codec contracts")
    struct CodecContractTests {
        static func fixture(_ decoder: any ImageDecoding, valid: [(String, PixelSize)], invalid: [String]) throws -> ImageDecodingContract.Fixture {
            let samples = try valid.map { name, size in
                ImageDecodingContract.Sample(name: name, input: .file(path: try Corpus.file(name).path), size: size)
            }
            let broken: [(name: String, input: ImageInput)] = try invalid.map { name in
                (name, ImageInput.data(try Data(contentsOf: Corpus.file(name))))
            } + [("missing file", .file(path: "/nonexistent/osprey.img"))]
            return .init(decoder: decoder, valid: samples, invalid: broken)
        }

        @Test("ImageCodec passes the ImageDecoding contract", arguments: ImageDecodingContract.Check.allCases)
        func codec(_ check: ImageDecodingContract.Check) throws {
            try ImageDecodingContract(fixture: Self.fixture(ImageCodec(), valid: [
                ("jpeg/libjpeg-turbo/testimgp.jpg", PixelSize(width: 227, height: 149)),
                ("jpeg/pillow/pil_sample_cmyk.jpg", PixelSize(width: 100, height: 100)),
                ("exif-orientation/Portrait_7.jpg", PixelSize(width: 1200, height: 1800)),
                ("pngsuite/basi3p02.png", PixelSize(width: 32, height: 32)),
                ("pngsuite/s09n3p02.png", PixelSize(width: 9, height: 9)),
                ("webp/libwebp-test-data/alpha/lossy_alpha1.webp", PixelSize(width: 1000, height: 307)),
                ("webp/animated/sharp_rotating-squares.webp", PixelSize(width: 80, height: 80)),
                ("gif/kingfisher_single-frame.gif", PixelSize(width: 120, height: 64)),
                ("avif/libavif_colors-animated-8bpc.avif", PixelSize(width: 150, height: 150)),
                ("heic/kingfisher_gradient-10b-displayp3-alpha.heic", PixelSize(width: 64, height: 64)),
            ], invalid: ["pngsuite/xcsn0g01.png", "pngsuite/xhdn0g08.png", "jpeg/sharp/truncated.jpg", "jpeg/sharp/corrupt-header.jpg"])).run(check)
        }

        @Test("Each format's decoder passes the ImageDecoding contract", arguments: ImageDecodingContract.Check.allCases)
        func perFormat(_ check: ImageDecodingContract.Check) throws {
            try ImageDecodingContract(fixture: Self.fixture(JPEGDecoder(), valid: [("jpeg/pillow/hopper_gray.jpg", PixelSize(width: 128, height: 128))],
                                                            invalid: ["jpeg/pillow/truncated_jpeg.jpg", "pngsuite/basn0g01.png"])).run(check)
            try ImageDecodingContract(fixture: Self.fixture(PNGDecoder(), valid: [("pngsuite/basn0g16.png", PixelSize(width: 32, height: 32))],
                                                            invalid: ["pngsuite/xdtn0g01.png", "jpeg/pillow/hopper.jpg"])).run(check)
            try ImageDecodingContract(fixture: Self.fixture(WebPDecoder(), valid: [("webp/libwebp-test-data/lossless/lossless2.webp", PixelSize(width: 1000, height: 307))],
                                                            invalid: ["pngsuite/basn0g01.png"])).run(check)
            try ImageDecodingContract(fixture: Self.fixture(GIFDecoder(), valid: [("gif/kingfisher_single-frame.gif", PixelSize(width: 120, height: 64))],
                                                            invalid: ["pngsuite/basn0g01.png"])).run(check)
            try ImageDecodingContract(fixture: Self.fixture(AVIFDecoder(), valid: [("avif/libavif_colors-animated-8bpc.avif", PixelSize(width: 150, height: 150))],
                                                            invalid: ["pngsuite/basn0g01.png"])).run(check)
            try ImageDecodingContract(fixture: Self.fixture(HEICDecoder(), valid: [("heic/kingfisher_gradient-10b-displayp3-alpha.heic", PixelSize(width: 64, height: 64))],
                                                            invalid: ["jpeg/pillow/hopper.jpg"])).run(check)
        }
    }
}
