import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// TIFF through libtiff against what libvips makes of the same files, which libvips writes
    /// from a corpus photograph: strips, 16-bit tiles, CMYK with its profile, alpha, pages.
    @Suite("TIFF")
    struct TIFFTests {
        /// A temporary folder with the files, made by `vips` and Pillow.
        static func makeFiles() throws -> URL {
            let folder = try TemporaryFolder.make("tiff")
            let path = { (name: String) in folder.appendingPathComponent(name).path }
            let steps: [[String]] = [
                ["vips", "thumbnail", try Corpus.file("photos/jolla.jpg").path, path("photo.png"), "400"],
                ["vips", "tiffsave", path("photo.png"), path("strips.tif"), "--compression", "lzw"],
                ["vips", "colourspace", path("photo.png"), path("photo16.v"), "rgb16"],
                ["vips", "tiffsave", path("photo16.v"), path("tiled16.tif"), "--tile", "--tile-width", "64", "--tile-height", "64",
                 "--compression", "deflate"],
                ["vips", "icc_transform", path("photo.png"), path("cmyk.tif"), "cmyk"],
                ["vips", "tiffsave", try Corpus.file("pngsuite/basn6a08.png").path, path("alpha.tif")],
                ["python3", "-c", "import sys; from PIL import Image; a = Image.open(sys.argv[1]).convert('RGB'); "
                    + "a.save(sys.argv[2], save_all=True, append_images=[a.rotate(180), a.transpose(Image.FLIP_LEFT_RIGHT)])",
                 path("photo.png"), path("pages.tif")],
            ]
            for step in steps {
                let outcome = try ChildProcess.run("/usr/bin/env", step)
                try #require(outcome.status == 0, "\(step[0]) \(step[1]): \(outcome.output)")
            }
            return folder
        }

        /// libvips' pixels of `file` (in sRGB), as Pillow reads its PNG.
        static func vips(_ file: URL) throws -> ReferenceDecoder.Pixels {
            let png = file.deletingPathExtension().appendingPathExtension("vips.png")
            let outcome = try ChildProcess.run("/usr/bin/env", ["vips", "copy", file.path, png.path])
            try #require(outcome.status == 0, "vips: \(outcome.output)")
            return try #require(try ReferenceDecoder.decode([png], mode: .pillow)[png.path]?.get())
        }

        @Test func everyKindDecodesAsLibvipsDecodesIt() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let codec = ImageCodec()
            for name in ["strips", "tiled16", "cmyk", "alpha"] {
                let file = folder.appendingPathComponent("\(name).tif")
                #expect(try codec.info(.file(path: file.path)).format == .tiff)
                let ours = try codec.decode(.file(path: file.path), options: DecodingOptions())
                let theirs = try Self.vips(file)
                #expect(ours.size == PixelSize(width: theirs.width, height: theirs.height), "\(name)")
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.flattened(ours), CodecTestSupport.flattened(theirs.bytes, channels: theirs.channels))
                #expect(psnr >= 35, "\(name): PSNR \(psnr) dB against libvips")
            }
            let thumbnail = try codec.decode(.file(path: folder.appendingPathComponent("tiled16.tif").path),
                                             options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100)))
            #expect(thumbnail.size == PixelSize(width: 100, height: 75))
        }

        @Test func pagesAreFramesWhenEveryFrameIsAsked() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("pages.tif").path
            let codec = ImageCodec()
            #expect(try codec.info(.file(path: file)).frameCount == 3)
            #expect(try codec.decode(.file(path: file), options: DecodingOptions()).animation == nil, "the first page by default")
            var all = DecodingOptions(targetSize: PixelSize(width: 200, height: 200))
            all.frames = .all
            let frames = try #require(try codec.decode(.file(path: file), options: all).animation?.frames)
            #expect(frames.count == 3 && frames.allSatisfy { $0.image.size == PixelSize(width: 200, height: 150) })
            let (first, turned) = (CodecTestSupport.bytes(of: frames[0].image, channels: 3), CodecTestSupport.bytes(of: frames[1].image, channels: 3))
            #expect(ReferenceDecoder.psnr(first, turned) < 20, "the second page is the first turned, not a copy")
        }

        @Test func writtenTIFFIsReadByPillowAndLibvips() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let codec = ImageCodec()
            for name in ["photo.png", "alpha.tif"] {
                let image = try codec.decode(.file(path: folder.appendingPathComponent(name).path), options: DecodingOptions())
                let out = folder.appendingPathComponent("written-\(name).tif")
                try codec.encode(image, options: EncodingOptions(format: .tiff)).write(to: out)
                let pillow = try #require(try ReferenceDecoder.decode([out], mode: .pillow)[out.path]?.get())
                #expect(pillow.width == image.width && pillow.height == image.height, "\(name): Pillow reads it")
                #expect(ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: pillow.channels), pillow.bytes) == .infinity,
                        "\(name): lossless")
                #expect(try Self.vips(out).width == image.width, "\(name): libvips reads it")
            }
        }

        @Test func damagedAndOversizedFilesAreTypedErrors() throws {
            let folder = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let whole = try Data(contentsOf: folder.appendingPathComponent("strips.tif"))
            let small = ImageCodec(limits: DecodingLimits(maxPixels: 10_000))
            #expect(throws: ImageDecodingError.tooManyPixels(width: 400, height: 300, limit: 10_000)) {
                try small.decode(.data(whole), options: DecodingOptions())
            }
            // One 32768² tile for a 16×16 page: refused from the header, before libtiff or the
            // decoder allocates the tile (it used to be malloc'ed at its declared 4 GB).
            let bomb = CraftedImages.tiff(side: 16, tile: 32_768, payload: Data([0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]))
            for read in [{ _ = try ImageCodec().decode(.data(bomb), options: DecodingOptions()) },
                         { _ = try ImageCodec().decodeEstimate(of: .data(bomb), options: DecodingOptions()) }] {
                let error = try #require(throws: ImageDecodingError.self) { try read() }
                #expect("\(error)".contains("tile of 4294967296 bytes for a 16x16 page"), "\(error)")
            }
            // The same page in a tile of its own size passes the check; its estimate counts the tile.
            let fitting = CraftedImages.tiff(side: 16, tile: 16, payload: Data([0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]))
            let estimate = try #require(try ImageCodec().decodeEstimate(of: .data(fitting), options: DecodingOptions()))
            #expect(estimate.size == PixelSize(width: 16, height: 16) && estimate.workingBytes == 16 * 16 * 7 + 16 * 16 * 4)
            for cut in [8, 200, whole.count / 2] {
                #expect(throws: ImageDecodingError.self, "cut at \(cut)") {
                    try ImageCodec().decode(.data(whole.prefix(cut)), options: DecodingOptions())
                }
            }
        }
    }
}
