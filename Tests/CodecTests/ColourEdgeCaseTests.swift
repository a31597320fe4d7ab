import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Colour and orientation cases that once came out far from libvips, on files
    /// `Tests/Scripts/craft_colour_cases.py` makes for each (Docs/CODEC.md, "Colour").
    @Suite("Colour edge cases")
    struct ColourEdgeCaseTests {
        static func craft() throws -> URL {
            let folder = try TemporaryFolder.make("colour")
            let corpus = try #require(Corpus.root)
            try JXLTests.tool("python3", [Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/craft_colour_cases.py").path, corpus.path, folder.path])
            return folder
        }

        static func decode(_ file: URL, _ handling: ColorHandling = .convertToSRGB) throws -> Image {
            try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(colorHandling: handling))
        }

        @Test func aCMYKJPEGWhoseProfileCannotBeUsedIsConvertedAsAnUntaggedOne() throws {
            let folder = try Self.craft()
            defer { try? FileManager.default.removeItem(at: folder) }
            let untagged = try Self.decode(folder.appendingPathComponent("cmyk-untagged.jpg"))
            let tagged = try Self.decode(try Corpus.file("icc/thumbor_cmyk-icc.jpg"))
            #expect(tagged.pixels != untagged.pixels, "the intact profile changes the colours")
            for name in ["cmyk-bad-offsets", "cmyk-missing-chunk", "cmyk-corrupt-lut"] {
                let damaged = try Self.decode(folder.appendingPathComponent(name + ".jpg"))
                #expect(damaged.size == untagged.size && damaged.pixels == untagged.pixels, "\(name)")
                #expect(try CodecTestSupport.codec.info(.file(path: folder.appendingPathComponent(name + ".jpg").path)).convertsToSRGB == false, "\(name)")
            }
        }

        @Test func anRGBStoredJPEGGoesThroughItsLUTProfile() throws {
            let folder = try Self.craft()
            defer { try? FileManager.default.removeItem(at: folder) }
            let references = try ReferenceDecoder.decode([folder.appendingPathComponent("rgb-lut-source.png"),
                                                          folder.appendingPathComponent("rgb-lut-reference.png")], mode: .pypng)
            let source = try #require(try references[folder.appendingPathComponent("rgb-lut-source.png").path]?.get())
            let mapped = try #require(try references[folder.appendingPathComponent("rgb-lut-reference.png").path]?.get())
            for name in ["rgb-lut-adobe", "rgb-lut-ids"] {
                let file = folder.appendingPathComponent(name + ".jpg")
                // Stored as RGB: no YCbCr conversion, so the samples are the photo's.
                let stored = try Self.decode(file, .preserve)
                let storedPSNR = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: stored, channels: 4), source.bytes)
                #expect(storedPSNR >= 35, "\(name): \(storedPSNR) dB from the photo")
                // Then through the profile's LUTs, as Little CMS maps them.
                let converted = try Self.decode(file)
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: converted, channels: 4), mapped.bytes)
                #expect(psnr >= 45, "\(name): \(psnr) dB from Little CMS's own mapping")
            }
        }

        @Test func heicOrientationFollowsIrotAndIgnoresExif() throws {
            let folder = try Self.craft()
            defer { try? FileManager.default.removeItem(at: folder) }
            for name in ["heic-exif6-irot", "heic-exif3-irot"] {
                let file = folder.appendingPathComponent(name + ".heic")
                let image = try Self.decode(file)
                // irot turned the 64x32 image (red square top left) as EXIF 6 would: the square
                // is now top right. Applying the EXIF orientation as well would turn it again.
                #expect(image.size == PixelSize(width: 32, height: 64), "\(name): \(image.size)")
                let rgb = CodecTestSupport.bytes(of: image, channels: 3)
                func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(rgb[(y * 32 + x) * 3..<(y * 32 + x) * 3 + 3]) }
                #expect(pixel(24, 8)[0] > 200 && pixel(24, 8)[2] < 60, "\(name): red top right, \(pixel(24, 8))")
                #expect(pixel(8, 8)[2] > 200 && pixel(8, 8)[0] < 60, "\(name): blue top left, \(pixel(8, 8))")
                #expect(pixel(8, 56)[2] > 200, "\(name): blue bottom left")
                #expect(try CodecTestSupport.codec.info(.file(path: file.path)).orientation == 1)
            }
        }
    }
}
