import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// PQ and HLG sources decoded with ``DecodingOptions/keepsHighBitDepth`` (imgproxy's
    /// `preserve_hdr`) keep their signal at 16 bits with its code points; AVIF, HEIC, JPEG XL and
    /// PNG (`cICP`) write it labelled and read it back, every other format gets it tone-mapped as a default decode is.
    @Suite("HDR signal kept")
    struct HDRSignalTests {
        let codec = ImageCodec()

        static func deep() -> DecodingOptions {
            var options = DecodingOptions()
            options.keepsHighBitDepth = true
            return options
        }

        static let sources: [(file: String, points: ColorCodePoints)] = [
            ("avif/libavif_colors_hdr_p3.avif", ColorCodePoints(primaries: 12, transfer: 16)),
            ("heic/sdwebimage_TestHDR.heic", ColorCodePoints(primaries: 9, transfer: 16)),
        ]

        @Test(arguments: sources.indices)
        func anHDRSourceKeepsItsSignalWhereTheFormatCanSayIt(_ index: Int) throws {
            let (name, points) = Self.sources[index]
            let file = try Corpus.file(name)
            let kept = try codec.decode(.file(path: file.path), options: Self.deep())
            let mapped = try codec.decode(.file(path: file.path), options: DecodingOptions())
            #expect(kept.pixelFormat.isHighBitDepth && kept.colorCodePoints == points && kept.colorProfile == nil, "\(name): \(kept)")
            #expect(mapped.pixelFormat.isHighBitDepth == false && mapped.colorCodePoints == nil)
            try expectToneMapped(kept.narrowedToEightBits, like: mapped, name)

            // Labelled where the format can say it, and read back as the same signal.
            for format in [ImageFormat.avif, .heic, .jxl, .png] {
                let written = try codec.encode(kept, options: EncodingOptions(format: format, quality: 0.9))
                let info = try codec.info(.data(written))
                #expect((info.bitDepth ?? 0) > 8 && info.colorProfile?.contains("HDR PQ") == true, "\(name) as \(format): \(info)")
                let again = try codec.decode(.data(written), options: Self.deep())
                #expect(again.colorCodePoints == points, "\(name) as \(format)")
                try expectToneMapped(try codec.decode(.data(written), options: DecodingOptions()), like: mapped, "\(name) as \(format)")
            }
            let png = try codec.encode(kept, options: EncodingOptions(format: .png))
            #expect(png[24] == 16 && Self.chunk("cICP", in: png) == [UInt8(points.primaries), UInt8(points.transfer), 0, 1])

            // Tone-mapped for formats that cannot, not cut to 8 bits as a plain signal.
            for format in [ImageFormat.jpeg, .webp, .tiff] {
                let written = try codec.encode(kept, options: EncodingOptions(format: format, quality: 0.95))
                try expectToneMapped(try codec.decode(.data(written), options: DecodingOptions()), like: mapped, "\(name) as \(format)")
            }
        }

        @Test func aJPEGXLInPQKeepsItsSignal() throws {
            let folder = try TemporaryFolder.make("hdr-kept")
            defer { try? FileManager.default.removeItem(at: folder) }
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            try JXLTests.tool("vipsthumbnail", [try Corpus.file("photos/craft-beer.jpg").path, "-s", "200", "-o", path("photo.png")])
            try JXLTests.tool("vips", ["colourspace", path("photo.png"), path("tagged16.png"), "rgb16"])
            try JXLTests.tool("vips", ["copy", path("tagged16.png"), path("photo16.png") + "[strip]"])
            try JXLTests.tool("cjxl", [path("photo16.png"), path("hlg.jxl"), "-d", "0", "-e", "1", "-x", "color_space=RGB_D65_202_Rel_HLG"])
            let kept = try codec.decode(.file(path: path("hlg.jxl")), options: Self.deep())
            #expect(kept.pixelFormat == .rgb16 && kept.colorCodePoints == ColorCodePoints(primaries: 9, transfer: 18))
            // Lossless: the samples are the PNG's own.
            let png = try codec.decode(.file(path: path("photo16.png")), options: Self.deep())
            #expect(kept.pixels == png.pixels)
            try expectToneMapped(kept.narrowedToEightBits, like: try codec.decode(.file(path: path("hlg.jxl")), options: DecodingOptions()), "hlg.jxl")
        }

        /// Within a lossy round trip of the default decode's tone mapping.
        private func expectToneMapped(_ image: Image, like mapped: Image, _ name: String) throws {
            #expect(image.size == mapped.size && image.pixelFormat.isHighBitDepth == false, "\(name): \(image)")
            guard image.size == mapped.size else { return }
            let channels = 3
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: channels), CodecTestSupport.bytes(of: mapped, channels: channels))
            #expect(psnr >= 30, "\(name): \(psnr) dB from the default decode's tone mapping")
        }

        /// The data of the first chunk of `type` in `png`.
        static func chunk(_ type: String, in png: Data) -> [UInt8]? {
            let bytes = [UInt8](png)
            var at = 8
            while at + 8 <= bytes.count {
                let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
                if bytes[at + 4..<at + 8].elementsEqual(type.utf8) { return Array(bytes[at + 8..<min(bytes.count, at + 8 + length)]) }
                at += 12 + length
            }
            return nil
        }

        @Test func aGrayPNGTellingPQIsStillEightBitUnlessAsked() throws {
            // Tone mapping needs colour; a gray file's cICP is read, not applied.
            var gray = try codec.decode(.file(path: Corpus.file("pngsuite/basn0g16.png").path), options: Self.deep())
            gray.colorCodePoints = ColorCodePoints(primaries: 9, transfer: 16)
            let png = try codec.encode(gray, options: EncodingOptions(format: .png))
            #expect(Self.chunk("cICP", in: png) == [9, 16, 0, 1])
            #expect(try codec.decode(.data(png), options: DecodingOptions()).pixelFormat == .gray8)
            #expect(try codec.decode(.data(png), options: Self.deep()).pixelFormat == .gray16)
        }

        @Test func aPlainCutWouldBeCaught() throws {
            // The check above can fail: the PQ signal cut to 8 bits without mapping is far from it.
            let file = try Corpus.file(Self.sources[0].file)
            var plain = try codec.decode(.file(path: file.path), options: Self.deep())
            plain.colorCodePoints = nil
            let mapped = try codec.decode(.file(path: file.path), options: DecodingOptions())
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: plain.narrowedToEightBits, channels: 3), CodecTestSupport.bytes(of: mapped, channels: 3))
            #expect(psnr < 25, "\(psnr) dB")
        }
    }
}
