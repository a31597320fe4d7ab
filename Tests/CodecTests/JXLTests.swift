import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyContracts
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// JPEG XL files made by `cjxl` (Debian's libjxl-tools) from the corpus, decoded against
    /// `djxl`'s output; Osprey's own files read back by `djxl`.
    @Suite("JPEG XL")
    struct JXLTests {
        /// The six kinds of file the issue names, made in a fresh folder.
        static func makeFiles() throws -> (folder: URL, files: [String: URL]) {
            let folder = try TemporaryFolder.make("jxl")
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            let photo = try Corpus.file("photos/jolla.jpg").path
            try tool("vipsthumbnail", [photo, "-s", "480", "-o", path("small.png")])
            try tool("vipsthumbnail", [photo, "-s", "480", "-o", path("small.jpg")])
            try tool("vips", ["colourspace", path("small.png"), path("small16.png"), "rgb16"])
            // Alpha rising from left to right over the photo.
            try tool("python3", ["-c", """
                from PIL import Image
                im = Image.open('\(path("small.png"))').convert('RGBA')
                w, h = im.size
                im.putalpha(Image.linear_gradient('L').rotate(90).resize((w, h)))
                im.save('\(path("alpha.png"))')
                """])
            let made: [(String, [String])] = [
                ("lossy", [path("small.png"), "-d", "1", "-e", "3"]),
                ("lossless", [path("small.png"), "-d", "0", "-e", "1"]),
                ("alpha", [path("alpha.png"), "-d", "1", "-e", "3"]),
                ("deep", [path("small16.png"), "-d", "0", "-e", "1"]),
                ("animated", [try Corpus.file("gif/kingfisher_dancing-banana.gif").path, "-e", "3"]),
                ("recompressed", [path("small.jpg"), "--lossless_jpeg=1"]),
            ]
            var files: [String: URL] = [:]
            for (name, arguments) in made {
                let output = path(name + ".jxl")
                try tool("cjxl", [arguments[0], output] + arguments.dropFirst())
                files[name] = URL(fileURLWithPath: output)
            }
            return (folder, files)
        }

        @discardableResult
        static func tool(_ name: String, _ arguments: [String]) throws -> String {
            let outcome = try ChildProcess.run("/usr/bin/env", [name] + arguments)
            try #require(outcome.status == 0, "\(name) exited \(outcome.status): \(outcome.output)")
            return outcome.output
        }

        /// `djxl`'s pixels of `file` (every frame of an animation), as Pillow reads its PNG.
        static func djxl(_ file: URL) throws -> ReferenceDecoder.Pixels {
            let png = file.deletingPathExtension().appendingPathExtension("djxl.png")
            try tool("djxl", [file.path, png.path])
            return try ReferenceDecoder.decode([png], mode: .pillowFrames)[png.path]!.get()
        }

        @Test func everyKindDecodesAsDjxlDoes() throws {
            let (folder, files) = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            for name in files.keys.sorted() {
                let file = files[name]!
                let reference = try Self.djxl(file)
                let ours = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(frames: .all))
                let frames = AnimationTests.frames(ours)
                #expect(frames.count == reference.frameCount, "\(name): \(frames.count) frames, djxl \(reference.frameCount)")
                #expect(ours.size == PixelSize(width: reference.width, height: reference.height), "\(name): \(ours.size)")
                for (index, frame) in frames.enumerated().prefix(reference.frameCount) {
                    let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: frame.image, channels: 4), reference.frame(index))
                    #expect(psnr >= 40, "\(name) frame \(index): \(psnr) dB against djxl")
                }
                let info = try CodecTestSupport.codec.info(.file(path: file.path))
                #expect(info.format == .jxl && info.frameCount == reference.frameCount && info.width == reference.width, "\(name): \(info)")
                #expect(info.hasAlpha == (name == "alpha" || name == "animated"), "\(name): \(info)")
                #expect(info.bitDepth == (name == "deep" ? 16 : 8), "\(name): \(info)")
            }
        }

        @Test("JXLDecoder passes the ImageDecoding contract", arguments: ImageDecodingContract.Check.allCases)
        func contract(_ check: ImageDecodingContract.Check) throws {
            let (folder, files) = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let valid = [ImageDecodingContract.Sample(name: "lossy", input: .file(path: files["lossy"]!.path), size: PixelSize(width: 480, height: 360)),
                         ImageDecodingContract.Sample(name: "animated", input: .file(path: files["animated"]!.path), size: PixelSize(width: 365, height: 360))]
            let lossy = try Data(contentsOf: files["lossy"]!)
            let invalid: [(name: String, input: ImageInput)] = [("cut", .data(lossy.prefix(lossy.count / 3))),
                                                                ("a PNG", .file(path: try Corpus.file("pngsuite/basn0g01.png").path)),
                                                                ("missing file", .file(path: "/nonexistent/osprey.jxl"))]
            try ImageDecodingContract(fixture: .init(decoder: JXLDecoder(), valid: valid, invalid: invalid)).run(check)
        }

        @Test func decodesAtTheTargetSize() throws {
            let (folder, files) = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let target = PixelSize(width: 100, height: 100)
            let fit = try CodecTestSupport.codec.decode(.file(path: files["lossy"]!.path), options: DecodingOptions(targetSize: target))
            #expect(fit.size == PixelSize(width: 100, height: 75))
            let fill = try CodecTestSupport.codec.decode(.file(path: files["lossy"]!.path),
                                                         options: DecodingOptions(targetSize: target, contentMode: .fill))
            #expect(fill.size == target)
        }

        @Test func ospreysOwnFilesAreReadByDjxl() throws {
            let folder = try TemporaryFolder.make("jxl-out")
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = try CodecTestSupport.codec.decode(.file(path: Corpus.file("photos/jolla.jpg").path),
                                                           options: DecodingOptions(targetSize: PixelSize(width: 320, height: 320)))
            let cases: [(String, Image, EncodingOptions, Double)] = [
                ("lossy", source, EncodingOptions(format: .jxl, quality: 0.9), 30),
                ("lossless", source, EncodingOptions(format: .jxl, lossless: true), .infinity),
                ("alpha", PixelConversion.converted(source, to: .rgba8), EncodingOptions(format: .jxl, lossless: true), .infinity),
            ]
            for (name, image, options, floor) in cases {
                let file = folder.appendingPathComponent(name + ".jxl")
                let encoded = try CodecTestSupport.codec.encode(image, options: options)
                #expect(FormatDetector.detect(encoded) == .jxl)
                try encoded.write(to: file)
                let reference = try Self.djxl(file)
                #expect(reference.width == image.width && reference.height == image.height, "\(name)")
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: 4), reference.frame(0))
                #expect(psnr >= floor, "\(name): \(psnr) dB after djxl")
            }
            // An animation keeps its frames.
            let gif = try CodecTestSupport.codec.decode(.file(path: Corpus.file("gif/kingfisher_dancing-banana.gif").path),
                                                        options: DecodingOptions(targetSize: PixelSize(width: 64, height: 64), frames: .all))
            let animated = folder.appendingPathComponent("animated.jxl")
            try CodecTestSupport.codec.encode(gif, options: EncodingOptions(format: .jxl)).write(to: animated)
            #expect(try Self.djxl(animated).frameCount == AnimationTests.frames(gif).count)
        }

        @Test func aJPEGRecompressesWithoutLoss() throws {
            let folder = try TemporaryFolder.make("jxl-jpeg")
            defer { try? FileManager.default.removeItem(at: folder) }
            let jpeg = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
            let jxl = try JXLEncoder().recompress(jpeg: jpeg)
            #expect(jxl.count < jpeg.count * 9 / 10, "\(jxl.count) of \(jpeg.count) bytes")
            let file = folder.appendingPathComponent("jolla.jxl")
            try jxl.write(to: file)
            let back = folder.appendingPathComponent("back.jpg")
            try Self.tool("djxl", [file.path, back.path])
            #expect(try Data(contentsOf: back) == jpeg, "djxl rebuilds the JPEG's own bytes")
            #expect(throws: ImageEncodingError.self) { try JXLEncoder().recompress(jpeg: Data("not a jpeg".utf8)) }
        }

        @Test func damagedAndOversizedFilesAreTypedErrors() throws {
            let (folder, files) = try Self.makeFiles()
            defer { try? FileManager.default.removeItem(at: folder) }
            let bytes = try Data(contentsOf: files["lossy"]!)
            for cut in [bytes.count / 2, 40, 12] {
                #expect {
                    try CodecTestSupport.codec.decode(.data(bytes.prefix(cut)), options: DecodingOptions())
                } throws: { error in
                    guard case ImageDecodingError.corrupt(let format, _) = error else { return false }
                    return format == .jxl
                }
            }
            #expect {
                try JXLDecoder(limits: DecodingLimits(maxPixels: 1000)).decode(.data(bytes), options: DecodingOptions())
            } throws: { error in
                guard case ImageDecodingError.tooManyPixels(480, 360, 1000) = error else { return false }
                return true
            }
        }
    }
}
