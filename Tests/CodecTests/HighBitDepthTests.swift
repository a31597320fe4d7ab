import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// High-bit-depth sources kept 16-bit when asked (imgproxy's `preserve_hdr`): 16-bit PNG as
/// libpng reads it, 16-bit TIFF as libtiff reads it, 10/12-bit AVIF and HEIC and deep JPEG XL as
/// their libraries convert them, resampled in floating point, written as 16-bit PNG, TIFF and
/// JPEG XL or 10-bit AVIF and HEIC;
/// narrowed to 8 bits for every other format, and by default.
@Suite("High bit depth")
struct HighBitDepthTests {
    let codec = ImageCodec()

    static func options(_ size: PixelSize? = nil) -> DecodingOptions {
        var options = DecodingOptions(targetSize: size)
        options.keepsHighBitDepth = true
        return options
    }

    static func samples(_ image: Image) -> [UInt16] {
        image.pixels.withUnsafeBytes { raw in (0..<raw.count / 2).map { raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self) } }
    }

    @Test(arguments: [("basn0g16.png", PixelFormat.gray16), ("basn2c16.png", .rgb16), ("basn6a16.png", .rgba16), ("basn4a16.png", .rgba16),
                      ("basi2c16.png", .rgb16)])
    func sixteenBitFilesKeepTheirSamples(_ name: String, _ format: PixelFormat) throws {
        let file = try Corpus.file("pngsuite/\(name)")
        let deep = try codec.decode(.file(path: file.path), options: Self.options())
        let shallow = try codec.decode(.file(path: file.path), options: DecodingOptions())
        #expect(deep.pixelFormat == format && shallow.pixelFormat == format.eightBit)
        #expect(Self.samples(deep).contains { $0 % 257 != 0 }, "values no 8-bit sample widens to: real 16-bit data")
        // Narrowed, the same image as libpng's own 8-bit scaling gives, within rounding.
        let narrowed = deep.narrowedToEightBits
        #expect(zip(narrowed.pixels, shallow.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })

        // Written as a 16-bit PNG (IHDR's depth byte) and read back unchanged.
        let png = try codec.encode(deep, options: EncodingOptions(format: .png))
        #expect(png[24] == 16)
        #expect(try codec.decode(.data(png), options: Self.options()).pixels == deep.pixels)
        // Formats that carry 8 bits get the narrowed image.
        let jpeg = try codec.encode(deep, options: EncodingOptions(format: .jpeg))
        #expect(try codec.decode(.data(jpeg), options: DecodingOptions()).size == deep.size)
        #expect(try codec.encode(shallow, options: EncodingOptions(format: .png))[24] == 8)
    }

    @Test func resizedSixteenBitImagesMatchTheEightBitResize() throws {
        let file = try Corpus.file("pngsuite/basn6a16.png")
        let size = PixelSize(width: 20, height: 20)
        let deep = try codec.decode(.file(path: file.path), options: Self.options(size))
        let shallow = try codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: size))
        #expect(deep.pixelFormat == .rgba16 && deep.size == size && shallow.size == size)
        let difference = zip(deep.narrowedToEightBits.pixels, shallow.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99
        #expect(difference <= 3, "\(difference)")
        // An 8-bit file is 8-bit whatever is asked.
        #expect(try codec.decode(.file(path: Corpus.file("pngsuite/basn2c08.png").path), options: Self.options(size)).pixelFormat == .rgb8)
    }

    @Test(arguments: ["linku_fox.profile0.10bpc.yuv420.avif", "linku_fox.profile2.12bpc.yuv444.avif"])
    func tenAndTwelveBitAVIFStaysDeepAndIsWrittenInTenBits(_ name: String) throws {
        let file = try Corpus.file("avif/\(name)")
        let size = PixelSize(width: 200, height: 200)
        let deep = try codec.decode(.file(path: file.path), options: Self.options(size))
        let shallow = try codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: size))
        #expect(deep.pixelFormat == .rgb16 && deep.size == shallow.size)
        #expect(Self.samples(deep).contains { $0 % 257 != 0 })
        // The 8-bit path box-averages rows before its Lanczos; this one filters them all.
        let psnr = ReferenceDecoder.psnr(deep.narrowedToEightBits.pixels, shallow.pixels)
        #expect(psnr >= 35, "\(psnr) dB")
        // Written again in 10 bits, and read back close to what was written.
        let avif = try codec.encode(deep, options: EncodingOptions(format: .avif, quality: 0.9))
        #expect(try codec.info(.data(avif)).bitDepth == 10)
        let again = try codec.decode(.data(avif), options: Self.options())
        #expect(again.pixelFormat == .rgb16 && again.size == deep.size)
        #expect(ReferenceDecoder.psnr(again.narrowedToEightBits.pixels, deep.narrowedToEightBits.pixels) >= 35)
        // 8 bits unless asked.
        #expect(try codec.info(.data(try codec.encode(shallow, options: EncodingOptions(format: .avif)))).bitDepth == 8)
    }

    /// JPEG XL, HEIC and TIFF carry more than 8 bits too: a 16-bit image is written with 16,
    /// 10 and 16 bits and read back deep.
    @Test(arguments: [(ImageFormat.jxl, 16, true), (.heic, 10, true), (.tiff, 16, true)])
    func otherDeepFormats(_ format: ImageFormat, _ bits: Int, _ readsDeep: Bool) throws {
        let source = try codec.decode(.file(path: Corpus.file("pngsuite/basn2c16.png").path), options: Self.options())
        let written = try codec.encode(source, options: EncodingOptions(format: format, quality: 0.95))
        #expect(try codec.info(.data(written)).bitDepth == bits)
        let again = try codec.decode(.data(written), options: Self.options())
        #expect(again.size == source.size && again.pixelFormat == (readsDeep ? .rgb16 : .rgb8))
        #expect(ReferenceDecoder.psnr(again.narrowedToEightBits.pixels, source.narrowedToEightBits.pixels) >= 30)
        if readsDeep { #expect(Self.samples(again).contains { $0 % 257 != 0 }) }
    }

    @Test func sixteenBitGrayTIFF() throws {
        // A 16-bit gray TIFF as Pillow writes it ("I;16", Deflate), read deep and as 8-bit.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-tiff16-\(UUID().uuidString).tif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try ChildProcess.run("/usr/bin/env", ["python3", "-c", """
            import sys; from PIL import Image
            im = Image.new("I;16", (40, 30)); im.putdata([(x * 1601 + y * 13) % 65536 for y in range(30) for x in range(40)])
            im.save(sys.argv[1], compression="tiff_deflate")
            """, folder.path])
        #expect(made.status == 0, "\(made.output)")
        let deep = try codec.decode(.file(path: folder.path), options: Self.options())
        #expect(deep.pixelFormat == .gray16 && Self.samples(deep)[41] == UInt16((1 * 1601 + 1 * 13) % 65_536))
        #expect(try codec.decode(.file(path: folder.path), options: DecodingOptions()).pixelFormat.isHighBitDepth == false)
    }

    @Test func widenedAndNarrowedAreInverse() throws {
        let image = try Image(width: 3, height: 1, pixelFormat: .rgb8, pixels: [0, 1, 2, 127, 128, 129, 253, 254, 255])
        let wide = PixelConversion.widened(image)
        #expect(wide.pixelFormat == .rgb16 && Self.samples(wide) == [0, 257, 514, 32_639, 32_896, 33_153, 65_021, 65_278, 65_535])
        #expect(wide.narrowedToEightBits.pixels == image.pixels)
        #expect(PixelConversion.converted(wide, to: .rgba8).pixels == [0, 1, 2, 255, 127, 128, 129, 255, 253, 254, 255, 255])
    }

    @Test func sixteenBitFormatsConvertInSixteenBits() throws {
        func image(_ format: PixelFormat, _ samples: [UInt16]) throws -> Image {
            let bytes: [UInt8] = samples.withUnsafeBytes { Array($0) }
            return try Image(width: 2, height: 1, pixelFormat: format, pixels: bytes)
        }
        // Gray repeated, opaque alpha added, values that no 8-bit sample widens to kept.
        let gray = try image(.gray16, [1_000, 60_001])
        let repeated: [UInt16] = [1_000, 1_000, 1_000, 60_001, 60_001, 60_001]
        let opaque: [UInt16] = [1_000, 1_000, 1_000, 65_535, 60_001, 60_001, 60_001, 65_535]
        #expect(Self.samples(PixelConversion.converted(gray, to: .rgb16)) == repeated)
        #expect(Self.samples(PixelConversion.converted(gray, to: .rgba16)) == opaque)
        // Alpha composited onto the background (white), luma by BT.601's weights.
        let rgba = try image(.rgba16, [40_000, 20_000, 1_234, 65_535, 0, 0, 0, 32_768])
        let composited: [UInt16] = [40_000, 20_000, 1_234, 32_767, 32_767, 32_767]
        #expect(Self.samples(PixelConversion.converted(rgba, to: .rgb16)) == composited)
        let weighted: Int = 40_000 * 299 + 20_000 * 587 + 1_234 * 114
        let luma = UInt16((weighted + 500) / 1_000)
        #expect(Self.samples(PixelConversion.converted(rgba, to: .gray16, background: 0)) == [luma, 0])
        var labelled = gray
        labelled.colorCodePoints = ColorCodePoints(primaries: 9, transfer: 16)
        #expect(PixelConversion.converted(labelled, to: .rgb16).colorCodePoints == labelled.colorCodePoints)
    }
}
