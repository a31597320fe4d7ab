import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    @Suite("Encoders")
    struct EncoderTests {
        static let codec = ImageCodec()

        static func sample(alpha: Bool) throws -> Image {
            let name = alpha ? "pngsuite/basn6a08.png" : "jpeg/pillow/hopper.jpg"
            return try codec.decode(.file(path: Corpus.file(name).path), options: DecodingOptions())
        }

        @Test func pngRoundTripIsExactAndKeepsAlpha() throws {
            let image = try Self.sample(alpha: true)
            let data = try Self.codec.encode(image, options: EncodingOptions(format: .png))
            #expect(try Self.codec.detectFormat(of: data) == .png)
            #expect(try Self.codec.decode(.data(data), options: DecodingOptions()) == image)
        }

        @Test func grayPNGStaysGray() throws {
            let gray = TestImages.gradient(PixelSize(width: 33, height: 7), format: .gray8)
            let data = try Self.codec.encode(gray, options: EncodingOptions(format: .png))
            #expect(try Self.codec.decode(.data(data), options: DecodingOptions()) == gray)
        }

        @Test func jpegQualityTradesSizeForFidelity() throws {
            let image = try Self.sample(alpha: false)
            let low = try Self.codec.encode(image, options: EncodingOptions(format: .jpeg, quality: 0.3))
            let high = try Self.codec.encode(image, options: EncodingOptions(format: .jpeg, quality: 0.95))
            #expect(low.count < high.count)
            let decoded = try Self.codec.decode(.data(high), options: DecodingOptions())
            #expect(ReferenceDecoder.psnr(decoded.pixels, image.pixels) > 35)
        }

        @Test func jpegFlattensAlphaOntoWhite() throws {
            let transparent = try Image(width: 8, height: 8, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 256))
            let data = try Self.codec.encode(transparent, options: EncodingOptions(format: .jpeg, quality: 0.9))
            let decoded = try Self.codec.decode(.data(data), options: DecodingOptions())
            #expect(decoded.pixelFormat == .rgb8)
            #expect(decoded.pixels.allSatisfy { $0 >= 250 }, "transparent becomes white, not black")
        }

        @Test func webpLosslessIsExactAndLossyIsClose() throws {
            let image = try Self.sample(alpha: true)
            let lossless = try Self.codec.encode(image, options: EncodingOptions(format: .webp, lossless: true))
            // Exact wherever a pixel shows: libwebp may rewrite the colour under alpha 0.
            let decoded = try Self.codec.decode(.data(lossless), options: DecodingOptions())
            #expect(PixelConversion.premultiplied(decoded) == PixelConversion.premultiplied(image))
            let photo = try Self.sample(alpha: false)
            let lossy = try Self.codec.encode(photo, options: EncodingOptions(format: .webp, quality: 0.9))
            let decodedLossy = try Self.codec.decode(.data(lossy), options: DecodingOptions())
            #expect(ReferenceDecoder.psnr(decodedLossy.pixels, photo.pixels) > 30)
        }

        @Test func autoStorageFormatKeepsTransparencyInPNG() throws {
            #expect(StorageFormat.auto.options(for: try Self.sample(alpha: true), writtenBy: ImageCodec()) == EncodingOptions(format: .png))
            #expect(StorageFormat.auto.options(for: try Self.sample(alpha: false), writtenBy: ImageCodec()) == EncodingOptions(format: .jpeg, quality: 0.8))
            #expect(StorageFormat.webp(quality: 0.7).options(for: try Self.sample(alpha: false), writtenBy: ImageCodec()) == EncodingOptions(format: .webp, quality: 0.7))
        }

        @Test func unknownFormatsAreRefused() throws {
            #expect(throws: ImageEncodingError.unsupportedFormat(.svg)) {
                try Self.codec.encode(TestImages.solid(PixelSize(width: 2, height: 2)), options: EncodingOptions(format: .svg))
            }
        }
    }
}
