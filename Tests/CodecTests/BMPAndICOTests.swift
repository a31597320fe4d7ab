import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// BMP and ICO, read by Osprey's own reader against libvips (through ImageMagick), on
    /// files Pillow writes from a corpus photograph; written files read back by Pillow and libvips.
    @Suite("BMP and ICO")
    struct BMPAndICOTests {
        static func makeFiles() throws -> URL {
            let folder = try TemporaryFolder.make("bmp")
            let script = """
                import sys, os
                from PIL import Image
                src, alpha, out = sys.argv[1], sys.argv[2], sys.argv[3]
                a = Image.open(src).convert("RGB"); a.thumbnail((400, 400))
                al = Image.open(alpha).convert("RGBA")
                a.save(os.path.join(out, "rgb24.bmp"))
                a.convert("P", palette=Image.ADAPTIVE, colors=256).save(os.path.join(out, "palette8.bmp"))
                a.convert("1").save(os.path.join(out, "mono1.bmp"))
                al.save(os.path.join(out, "alpha32.bmp"))
                a.save(os.path.join(out, "sizes.ico"), sizes=[(16, 16), (32, 32), (64, 64), (256, 256)])
                al.save(os.path.join(out, "alpha.ico"), sizes=[(16, 16), (32, 32)])
                a.resize((32, 32)).save(os.path.join(out, "bitmap.ico"), sizes=[(32, 32)], bitmap_format="bmp")
                """
            let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, try Corpus.file("photos/jolla.jpg").path,
                                                                try Corpus.file("pngsuite/basn6a08.png").path, folder.path])
            try #require(outcome.status == 0, "Pillow: \(outcome.output)")
            return folder
        }

        /// libvips' pixels of `file` laid on white (`[page=N]` picks an ICO's entry).
        static func vips(_ file: URL, page: Int? = nil) throws -> ReferenceDecoder.Pixels {
            let png = file.deletingPathExtension().appendingPathExtension("\(file.pathExtension).vips.png")
            let outcome = try ChildProcess.run("/usr/bin/env", ["vips", "copy", file.path + (page.map { "[page=\($0)]" } ?? ""), png.path])
            try #require(outcome.status == 0, "vips: \(outcome.output)")
            return try #require(try ReferenceDecoder.decode([png], mode: .pillow)[png.path]?.get())
        }

        static func psnr(_ image: Image, _ reference: ReferenceDecoder.Pixels) -> Double {
            guard image.width == reference.width, image.height == reference.height else { return 0 }
            return ReferenceDecoder.psnr(CodecTestSupport.flattened(image), CodecTestSupport.flattened(reference.bytes, channels: reference.channels))
        }

        @Test func bitmapsDecodeAsLibvipsDecodesThem() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let codec = ImageCodec()
            for name in ["rgb24.bmp", "palette8.bmp", "mono1.bmp", "alpha32.bmp", "bitmap.ico"] {
                let file = folder.appendingPathComponent(name)
                let image = try codec.decode(.file(path: file.path), options: DecodingOptions())
                let psnr = Self.psnr(image, try Self.vips(file))
                #expect(psnr >= 35, "\(name): PSNR \(psnr) dB against libvips")
            }
            // The layouts read a row at a time give Pillow's very colours (Pillow leaves the
            // fourth bytes of a 32-bit bitmap without masks aside, where browsers read alpha).
            let files = ["rgb24.bmp", "palette8.bmp", "alpha32.bmp"].map { folder.appendingPathComponent($0) }
            let pillow = try ReferenceDecoder.decode(files, mode: .pillow)
            for file in files {
                let image = try codec.decode(.file(path: file.path), options: DecodingOptions())
                let reference = try #require(try pillow[file.path]?.get())
                let colours = { (bytes: [UInt8], channels: Int) in stride(from: 0, to: bytes.count, by: channels).flatMap { bytes[$0..<$0 + 3] } }
                #expect(colours(image.pixels, image.pixelFormat.bytesPerPixel) == colours(reference.bytes, reference.channels), "\(file.lastPathComponent)")
            }
            let alpha = try codec.decode(.file(path: folder.appendingPathComponent("alpha32.bmp").path), options: DecodingOptions())
            #expect(alpha.pixelFormat.hasAlpha, "a 32-bit bitmap with alpha in its fourth bytes keeps it")
            let thumbnail = try codec.decode(.file(path: folder.appendingPathComponent("rgb24.bmp").path),
                                             options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100)))
            #expect(thumbnail.size == PixelSize(width: 100, height: 75))
        }

        @Test func anIconGivesTheEntryNearestTheSizeAsked() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let codec = ImageCodec()
            let file = folder.appendingPathComponent("sizes.ico")
            #expect(try codec.info(.file(path: file.path)).width == 256, "the largest entry's size")
            let full = try codec.decode(.file(path: file.path), options: DecodingOptions())
            let largest = try Self.vips(file, page: 3)
            #expect(full.width == 256 && Self.psnr(full, largest) >= 35, "the largest without a target")
            let small = try codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 30, height: 30)))
            #expect(small.width == 30, "the 32-pixel entry, reduced")
            let entry = try codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 32, height: 32)))
            let second = try Self.vips(file, page: 1)
            #expect(Self.psnr(entry, second) >= 35, "the 32-pixel entry as it is")
            let alpha = try codec.decode(.file(path: folder.appendingPathComponent("alpha.ico").path), options: DecodingOptions())
            let theirs = try Self.vips(folder.appendingPathComponent("alpha.ico"), page: 1)
            #expect(alpha.pixelFormat.hasAlpha && Self.psnr(alpha, theirs) >= 35)
        }

        @Test func anRLE8BitmapAndACutOneAreRead() throws {
            // 4×2, bottom-up: a run of 4 red on the bottom row; then 3 literal pixels (blue, red,
            // blue, padded to a word), end of bitmap.
            var bmp = Data("BM".utf8) + Data(count: 8) + Data([62, 0, 0, 0])
            bmp += Data([40, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 1, 0, 8, 0, 1, 0, 0, 0]) + Data(count: 12) + Data([2, 0, 0, 0]) + Data(count: 4)
            bmp += Data([0, 0, 255, 0, 255, 0, 0, 0])  // palette: red, blue (BGR0)
            bmp += Data([4, 0, 0, 0, 0, 3, 1, 0, 1, 0, 0, 1])
            let image = try ImageCodec().decode(.data(bmp), options: DecodingOptions())
            let rgba = CodecTestSupport.bytes(of: image, channels: 4)
            #expect(Array(rgba[16..<20]) == [255, 0, 0, 255] && Array(rgba[28..<32]) == [255, 0, 0, 255], "the bottom row is red")
            #expect(Array(rgba[0..<12]) == [0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 255, 255] && rgba[15] == 0,
                    "blue, red, blue, then what the file lacks is transparent")

            // 1×1 at 32 bits with a red mask of all 32 bits: its scale to 0…255 must not overflow.
            var masked = Data("BM".utf8) + Data(count: 8) + Data([66, 0, 0, 0])
            masked += Data([40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 32, 0, 3, 0, 0, 0]) + Data(count: 20)
            masked += Data([255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0]) + Data([255, 255, 255, 255])
            let red = CodecTestSupport.bytes(of: try ImageCodec().decode(.data(masked), options: DecodingOptions()), channels: 3)
            #expect(red == [255, 0, 0], "a full mask reads as its channel's full value: \(red)")

            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let whole = try Data(contentsOf: folder.appendingPathComponent("rgb24.bmp"))
            let cut = try ImageCodec().decode(.data(whole.prefix(whole.count / 2)), options: DecodingOptions())
            let cutBytes = CodecTestSupport.bytes(of: cut, channels: 4)
            #expect(cut.size == PixelSize(width: 400, height: 300) && cutBytes[3] == 0 && cutBytes[cutBytes.count - 1] == 255,
                    "the rows a cut file lacks (its top: rows are stored bottom-up) are transparent, the others kept")
            #expect(throws: ImageDecodingError.tooManyPixels(width: 400, height: 300, limit: 10_000)) {
                try ImageCodec(limits: DecodingLimits(maxPixels: 10_000)).decode(.data(whole), options: DecodingOptions())
            }
            // An icon whose PNG entry claims 2³²−1 a side: skipped (its area would overflow), not a crash.
            // Two directory entries point at it, so that their areas are compared.
            let entry = Data(count: 8) + Data([33, 0, 0, 0, 38, 0, 0, 0])
            var huge = Data([0, 0, 1, 0, 2, 0]) + entry + entry
            huge += Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8) + Data(repeating: 0xFF, count: 8) + Data(count: 5 + 4)
            for broken in [whole.prefix(20), Data("BM".utf8) + Data(count: 12) + Data([99, 0, 0, 0]) + Data(count: 30), Data([0, 0, 1, 0, 1, 0]) + Data(count: 16), huge] {
                #expect(throws: ImageDecodingError.self) { try ImageCodec().decode(.data(Data(broken)), options: DecodingOptions()) }
            }
        }

        @Test func writtenBitmapsAndIconsAreReadByPillowAndLibvips() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let codec = ImageCodec()
            for (source, format) in [("rgb24.bmp", ImageFormat.bmp), ("alpha32.bmp", .bmp), ("rgb24.bmp", .ico), ("alpha.ico", .ico)] {
                let image = try codec.decode(.file(path: folder.appendingPathComponent(source).path), options: DecodingOptions())
                let out = folder.appendingPathComponent("written-\(source).\(format.fileExtension)")
                try codec.encode(image, options: EncodingOptions(format: format)).write(to: out)
                let pillow = try #require(try ReferenceDecoder.decode([out], mode: .pillow)[out.path]?.get())
                #expect(Self.psnr(image, pillow) == .infinity, "\(source) as \(format): Pillow reads it, lossless")
                let vips = try Self.vips(out)
                #expect(Self.psnr(image, vips) == .infinity, "\(source) as \(format): libvips reads it, lossless")
                #expect(try codec.decode(.data(Data(contentsOf: out)), options: DecodingOptions()).size == image.size)
            }
        }
    }
}
