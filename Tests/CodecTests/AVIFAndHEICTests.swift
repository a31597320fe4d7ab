import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// `shared/corpus/avif` and `heic` against SOURCES.md and the reference decoders.
    @Suite("AVIF and HEIC")
    struct AVIFAndHEICTests {
        /// Displayed size and frames of every file, following the file's own `irot`, `imir` and
        /// `clap` as libavif and libheif read them (Docs/CODEC.md: Pillow leaves AVIF `irot` to
        /// EXIF and ignores `clap`; libvips fails both kimono files).
        static let expected: [String: (width: Int, height: Int, frames: Int)] = [
            "avif/immich_10bit-HDR-P3-nclx.avif": (3681, 5594, 1),
            "avif/libavif_abc_color_irot_alpha_irot.avif": (256, 512, 1),
            "avif/libavif_colors-animated-8bpc.avif": (150, 150, 5),
            "avif/libavif_colors_hdr_p3.avif": (200, 200, 1),
            "avif/libavif_sofa_grid1x5_420.avif": (1024, 770, 1),
            "avif/linku_fox.profile0.10bpc.yuv420.avif": (1204, 800, 1),
            "avif/linku_fox.profile0.8bpc.yuv420.avif": (1204, 800, 1),
            "avif/linku_fox.profile0.8bpc.yuv420.monochrome.avif": (1204, 800, 1),
            "avif/linku_fox.profile0.8bpc.yuv420.odd-width.odd-height.avif": (1203, 799, 1),
            "avif/linku_fox.profile1.8bpc.yuv444.avif": (1204, 800, 1),
            "avif/linku_fox.profile2.12bpc.yuv444.avif": (1204, 800, 1),
            "avif/linku_fox.profile2.8bpc.yuv422.avif": (1204, 800, 1),
            "avif/linku_kimono.crop.avif": (385, 330, 1),
            "avif/linku_kimono.rotate90.avif": (722, 1024, 1),
            "avif/linku_plum-blossom-small.profile0.8bpc.yuv420.alpha-full.avif": (128, 128, 1),
            "avif/linku_red-at-12-oclock-with-color-profile-lossy.avif": (800, 800, 1),
            "avif/linku_star-10bpc.avifs": (159, 159, 5),
            "avif/linku_star-8bpc-with-alpha.avifs": (159, 159, 5),
            "heic/bimg_test.heic": (3024, 4032, 1),
            "heic/exifpy_HMD_Nokia_8.3_5G_hdr.heif": (4608, 3456, 1),
            "heic/immich_samsung-one-ui-6.heic": (3000, 4000, 1),
            "heic/kingfisher_gradient-10b-displayp3-alpha.heic": (64, 64, 1),
            "heic/nokia_candle_animation.heic": (256, 144, 1),
            "heic/nokia_grid_960x640.heic": (960, 640, 1),
            "heic/nokia_overlay_1000x680.heic": (1000, 680, 1),
            "heic/nokia_random_collection_1440x960.heic": (1440, 960, 1),
            "heic/nuke_img_751.heic": (1008, 756, 1),
            "heic/sdwebimage_TestHDR.heic": (600, 400, 1),
        ]

        @Test func everyFileHasItsSizeAndFrames() throws {
            let files = try CodecTestSupport.images(in: "avif", extensions: ["avif", "avifs"]) + CodecTestSupport.images(in: "heic", extensions: ["heic", "heif"])
            #expect(files.count == 18 + 10)
            for file in files {
                let key = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
                let expected = try #require(Self.expected[key], "\(key) has an expectation")
                let info = try CodecTestSupport.codec.info(.file(path: file.path))
                #expect(info.width == expected.width && info.height == expected.height && info.frameCount == expected.frames, "\(key): \(info)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path),
                                                              options: DecodingOptions(targetSize: PixelSize(width: 256, height: 256), frames: .all))
                #expect(AnimationTests.frames(image).count == expected.frames, "\(key)")
                #expect(image.size == PixelSize(width: expected.width, height: expected.height).scaled(toFit: PixelSize(width: 256, height: 256), mode: .fit), "\(key): \(image.size)")
            }
        }

        /// Full-size pixels against Pillow (its AVIF plugin and pillow-heif, colour-managed; AVIF
        /// `irot` through the EXIF orientation Pillow reports), where Pillow reads the file as
        /// the boxes say; libvips for the file Pillow cannot open. The PQ files are tone-mapped,
        /// where Pillow gives their coded values: `HDRTests` checks them.
        @Test func fullSizePixelsMatchAReference() throws {
            let hdr = ["avif/immich_10bit-HDR-P3-nclx.avif", "avif/libavif_colors_hdr_p3.avif", "heic/sdwebimage_TestHDR.heic"]
            let pillow = Self.expected.keys.sorted().filter {
                !hdr.contains($0) && ($0.hasPrefix("avif/") ? !["avif/linku_kimono.crop.avif", "avif/linku_plum-blossom-small.profile0.8bpc.yuv420.alpha-full.avif",
                                                                "avif/linku_star-8bpc-with-alpha.avifs"].contains($0) : true)
            }
            try Self.expectMatch(pillow, mode: .pillow)
            try Self.expectMatch(["avif/linku_plum-blossom-small.profile0.8bpc.yuv420.alpha-full.avif"], mode: .vips)
        }

        /// kimono.crop's `clap` puts its corner half a pixel off the grid (543/2, 39); the corner
        /// rounds down to the 4:2:0 chroma grid, (270, 38), and the crop keeps its 385×330.
        @Test func aCleanApertureCropsAsItsBoxSays() throws {
            let file = try Corpus.file("avif/linku_kimono.crop.avif")
            let reference = try #require(try ReferenceDecoder.decode([file], mode: .pillow)[file.path]?.get())
            #expect(reference.width == 722 && reference.height == 1024, "Pillow ignores clap")
            var cropped: [UInt8] = []
            for y in 38..<38 + 330 {
                let start = (y * 722 + 270) * 3
                cropped += reference.bytes[start..<start + 385 * 3]
            }
            let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: 3), cropped)
            #expect(psnr >= 40, "\(psnr) dB")
        }

        @Test func animatedAVIFGivesEveryFrameWithItsDuration() throws {
            for name in ["avif/libavif_colors-animated-8bpc.avif", "avif/linku_star-10bpc.avifs"] {
                let file = try Corpus.file(name)
                let animation = try #require(try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(frames: .all)).animation)
                #expect(animation.frames.count == 5 && animation.frames.allSatisfy { $0.duration > .zero }, "\(name)")
            }
            try AnimationTests.expectFramesMatchPillow([(Corpus.file("avif/libavif_colors-animated-8bpc.avif"), 0),
                                                       (Corpus.file("avif/linku_star-10bpc.avifs"), 0)])
        }

        @Test func heifTransformsApplyAndExifOrientationIsIgnored() throws {
            for name in ["heic/bimg_test.heic", "heic/immich_samsung-one-ui-6.heic"] {
                let info = try CodecTestSupport.codec.info(.file(path: Corpus.file(name).path))
                #expect(info.orientation == 1 && info.height > info.width, "\(name): irot applied once, EXIF 6 not again")
            }
        }

        @Test func anAVIFWrittenByOspreyReadsBackInPillow() throws {
            let photo = try CodecTestSupport.codec.decode(.file(path: Corpus.file("photos/craft-beer.jpg").path),
                                                          options: DecodingOptions(targetSize: PixelSize(width: 640, height: 640)))
            let avif = try CodecTestSupport.codec.encode(photo, options: EncodingOptions(format: .avif, quality: 0.8))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-\(UUID().uuidString).avif")
            try avif.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let back = try #require(try ReferenceDecoder.decode([file], mode: .pillow)[file.path]?.get())
            #expect(back.width == photo.width && back.height == photo.height)
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: photo, channels: 3), back.bytes)
            #expect(psnr >= 35, "\(psnr) dB at quality 0.8")
            #expect(try CodecTestSupport.codec.info(.data(avif)).format == .avif)
        }

        static func expectMatch(_ names: [String], mode: ReferenceDecoder.Mode) throws {
            let files = try names.map { try Corpus.file($0) }
            let references = try ReferenceDecoder.decode(files, mode: mode)
            for (name, file) in zip(names, files) {
                let reference = try #require(try? references[file.path]?.get(), "no reference for \(name)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
                #expect(image.width == reference.width && image.height == reference.height, "\(name): \(image.size) vs \(reference.width)x\(reference.height)")
                guard image.width == reference.width && image.height == reference.height else { continue }
                let ours = CodecTestSupport.bytes(of: image, channels: reference.channels)
                let psnr = reference.channels == 4
                    ? ReferenceDecoder.psnr(AnimationTests.overWhite(ours), AnimationTests.overWhite(reference.bytes))
                    : ReferenceDecoder.psnr(ours, reference.bytes)
                #expect(psnr >= 40, "\(name): \(psnr) dB")
            }
        }
    }
}
