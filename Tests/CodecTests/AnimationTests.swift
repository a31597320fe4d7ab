import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// GIF, APNG and animated WebP against `shared/corpus/SOURCES.md`, the pygif suite's own
    /// frames, and Pillow's composed frames.
    @Suite("Animations")
    struct AnimationTests {
        static let all = DecodingOptions(frames: .all)

        /// Frames of `image`: its animation's, or the still itself.
        static func frames(_ image: Image) -> [ImageAnimation.Frame] {
            image.animation?.frames ?? [ImageAnimation.Frame(image: image, duration: .zero)]
        }

        /// RGB of straight RGBA bytes composited over white, as the issue's PSNR asks.
        static func overWhite(_ rgba: [UInt8]) -> [UInt8] {
            var out = [UInt8]()
            out.reserveCapacity(rgba.count / 4 * 3)
            for i in stride(from: 0, to: rgba.count, by: 4) {
                let a = Int(rgba[i + 3])
                for c in 0..<3 { out.append(UInt8((Int(rgba[i + c]) * a + 255 * (255 - a) + 127) / 255)) }
            }
            return out
        }

        /// Every frame matches Pillow's at `minimum` dB or better; `skip` drops Pillow's first frames.
        static func expectFramesMatchPillow(_ files: [(URL, skip: Int)], minimum: Double = 40) throws {
            let references = try ReferenceDecoder.decode(files.map(\.0), mode: .pillowFrames)
            for (file, skip) in files {
                let name = file.lastPathComponent
                let reference = try #require(try? references[file.path]?.get(), "no Pillow frames for \(name)")
                let ours = frames(try CodecTestSupport.codec.decode(.file(path: file.path), options: all))
                #expect(ours.count == reference.frameCount - skip, "\(name): \(ours.count) frames, Pillow \(reference.frameCount)")
                for (index, frame) in ours.enumerated() where index + skip < reference.frameCount {
                    let psnr = ReferenceDecoder.psnr(overWhite(PixelConversion.converted(frame.image, to: .rgba8).pixels),
                                                     overWhite(reference.frame(index + skip)))
                    #expect(psnr >= minimum, "\(name) frame \(index): \(psnr) dB")
                }
            }
        }

        // MARK: GIF

        /// frames, plays (0 forever), first delay in ms — from SOURCES.md (plays as libvips counts them).
        static let gifs: [String: (frames: Int, plays: Int, delay: Int)] = [
            "bimg_test.gif": (24, 0, 500), "kingfisher_dancing-banana.gif": (8, 0, 100),
            "kingfisher_single-frame.gif": (1, 1, 0), "linku_star.gif": (4, 0, 100), "nuke_cat.gif": (22, 0, 70),
            "sdwebimage_TestLoopCount.gif": (2, 1, 500), "thumbor_Rotating_earth_large.gif": (44, 65536, 90),
            "thumbor_SmallFullColourGIF.gif": (20, 0, 1000),
        ]

        @Test func gifFramesLoopsAndDelaysMatchSources() throws {
            for (name, expected) in Self.gifs {
                let file = try Corpus.file("gif/\(name)")
                let info = try CodecTestSupport.codec.info(.file(path: file.path))
                #expect(info.frameCount == expected.frames, "\(name)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: Self.all)
                #expect(Self.frames(image).count == expected.frames, "\(name)")
                guard let animation = image.animation else { continue }
                #expect(animation.loopCount == expected.plays, "\(name)")
                #expect(info.loopCount == expected.plays, "\(name)")
                #expect(animation.frames[0].duration == .milliseconds(expected.delay), "\(name)")
            }
        }

        @Test func gifFramesMatchPillow() throws {
            try Self.expectFramesMatchPillow(Self.gifs.keys.sorted().map { (try Corpus.file("gif/\($0)"), 0) })
        }

        /// The pygif files whose frames the suite and browsers agree on, compared byte for byte
        /// (RGB ignored where alpha is 0). restore-background clears to transparent, a frame
        /// outside the screen is clipped, and pixels missing from short data stay transparent,
        /// as browsers do and the suite expects (Pillow and libvips differ: Docs/CODEC.md).
        static let pygifExact = ["animation", "animation-zero-delays", "dispose-none", "dispose-keep", "gif87a", "icc-color-profile",
                                 "interlace", "local-color-table", "no-global-color-table", "loop-once", "transparent",
                                 "dispose-restore-background", "image-outside-bg", "missing-pixels", "no-eoi"]

        @Test func pygifFramesMatchTheSuiteExactly() throws {
            for name in Self.pygifExact {
                let conf = try String(contentsOf: try Corpus.file("gif/pygif/\(name).conf"), encoding: .utf8)
                let sections = Self.sections(of: conf)
                let frameNames = (sections["config"]?["frames"] ?? "").split(separator: ",").map(String.init)
                let image = try CodecTestSupport.codec.decode(.file(path: try Corpus.file("gif/pygif/\(name).gif").path), options: Self.all)
                let ours = Self.frames(image)
                #expect(ours.count == frameNames.count, "\(name)")
                for (index, frameName) in frameNames.enumerated() where index < ours.count {
                    let expected = [UInt8](try Data(contentsOf: try Corpus.file("gif/pygif/\(sections[frameName]!["pixels"]!)")))
                    let actual = PixelConversion.converted(ours[index].image, to: .rgba8).pixels
                    #expect(Self.clearingTransparent(actual) == Self.clearingTransparent(expected), "\(name) frame \(index)")
                    if ours.count > 1, let delay = Int(sections[frameName]!["delay"] ?? "") {
                        #expect(ours[index].duration == AnimationTestSupport.display(centiseconds: delay), "\(name) frame \(index)")
                    }
                }
                if sections["config"]?["loop-count"] == "infinite", let animation = image.animation { #expect(animation.loopCount == 0, "\(name)") }
            }
        }

        /// Where Osprey, Pillow and libvips show every image the file holds and the suite merges
        /// them: a background image with no delay before four frames, and four zero-delay frames
        /// adding 256 colours each (the suite's single frame is the last one).
        @Test func pygifFilesThatTheSuiteMergesKeepEveryImage() throws {
            let previous = Self.frames(try CodecTestSupport.codec.decode(.file(path: Corpus.file("gif/pygif/dispose-restore-previous.gif").path), options: Self.all))
            #expect(previous.count == 5)
            for index in 0..<4 where index + 1 < previous.count {
                let expected = [UInt8](try Data(contentsOf: Corpus.file("gif/pygif/animation.\(index).rgba")))
                #expect(Self.clearingTransparent(PixelConversion.converted(previous[index + 1].image, to: .rgba8).pixels) == Self.clearingTransparent(expected))
            }
            let highColor = Self.frames(try CodecTestSupport.codec.decode(.file(path: Corpus.file("gif/pygif/high-color.gif").path), options: Self.all))
            #expect(highColor.count == 4)
            let expected = [UInt8](try Data(contentsOf: Corpus.file("gif/pygif/high-color.rgba")))
            #expect(PixelConversion.converted(try #require(highColor.last).image, to: .rgba8).pixels == expected)
        }

        @Test func damagedGIFsWithNoDrawableFrameAreRefused() throws {
            for name in ["invalid-code", "overflow-codes", "no-data", "zero-size"] {
                let file = try Corpus.file("gif/pygif/\(name).gif")
                #expect(throws: ImageDecodingError.self, "\(name)") {
                    try CodecTestSupport.codec.decode(.file(path: file.path), options: Self.all)
                }
            }
        }

        @Test func aTruncatedAnimationKeepsItsWholeFrames() throws {
            let data = try Data(contentsOf: try Corpus.file("gif/nuke_cat.gif"))
            let image = try CodecTestSupport.codec.decode(.data(data.prefix(data.count / 2)), options: Self.all)
            let count = Self.frames(image).count
            #expect(count > 1 && count < 22)
        }

        // MARK: APNG

        /// frames (the default image left out when it is not a frame), plays, first delay in ms.
        static let apngs: [String: (frames: Int, plays: Int, delay: Int, pillowExtra: Int)] = [
            "apngkit-spec_010.png": (3, 1, 0, 1), "apngkit-spec_025.png": (4, 0, 0, 1), "apngkit-spec_032.png": (2, 2, 0, 1),
            "apngkit-spec_034.png": (2, 1, 0, 1), "apngkit_elephant_apng.apng": (34, 0, 41, 0), "apngkit_maneki-neko.apng": (3, 1, 1000, 0),
            "apngkit_over_background.apng": (3, 0, 1000, 0), "apngkit_over_none.apng": (3, 0, 1000, 0),
            "apngkit_over_previous.apng": (3, 0, 1000, 0), "apngkit_spinfox.apng": (25, 0, 50, 0),
            "apngkit_tRNS_alpha.apng": (22, 0, 80, 0), "sdwebimage_TestImageAnimated.apng": (101, 0, 30, 0),
        ]

        @Test func apngFramesLoopsAndDelaysMatchSources() throws {
            for (name, expected) in Self.apngs {
                let file = try Corpus.file("apng/\(name)")
                let info = try CodecTestSupport.codec.info(.file(path: file.path))
                #expect(info.frameCount == expected.frames, "\(name)")
                #expect(info.loopCount == expected.plays, "\(name)")
                let animation = try #require(try CodecTestSupport.codec.decode(.file(path: file.path), options: Self.all).animation, "\(name)")
                #expect(animation.frames.count == expected.frames && animation.loopCount == expected.plays, "\(name)")
                if expected.delay > 0 { #expect(animation.frames[0].duration == .milliseconds(expected.delay), "\(name)") }
            }
        }

        /// Where Pillow 13 composes APNG frames against the spec (Docs/CODEC.md, "Where the
        /// references disagree"): it multiplies alpha twice when blending over a half-transparent
        /// frame (over_*), clears an RGB+tRNS canvas to opaque black (tRNS_alpha), and does not
        /// restore the canvas for DISPOSE_OP_PREVIOUS (spec_010, whose last frame must be green).
        static let pillowComposesDifferently: Set<String> = ["apngkit_over_background.apng", "apngkit_over_none.apng",
                                                              "apngkit_over_previous.apng", "apngkit_tRNS_alpha.apng",
                                                              "apngkit-spec_010.png"]

        @Test func apngFramesMatchPillow() throws {
            try Self.expectFramesMatchPillow(Self.apngs.sorted { $0.key < $1.key }.filter { !Self.pillowComposesDifferently.contains($0.key) }
                .map { (try Corpus.file("apng/\($0.key)"), $0.value.pillowExtra) })
        }

        @Test func apngDisposeAndBlendFollowTheSpec() throws {
            // The APNG test suite's DISPOSE_OP_PREVIOUS case shows solid green when it is right.
            let spec = try #require(try CodecTestSupport.codec.decode(.file(path: Corpus.file("apng/apngkit-spec_010.png").path), options: Self.all).animation)
            let last = PixelConversion.converted(spec.frames[2].image, to: .rgba8).pixels
            #expect(stride(from: 0, to: last.count, by: 4).allSatisfy { last[$0] < 8 && last[$0 + 1] > 247 && last[$0 + 3] == 255 })
            // Blending over a disposed (cleared) region leaves the frame's own pixels; over a kept
            // region, straight-alpha "over" makes it more opaque than either frame.
            func frames(_ name: String) throws -> [Image] {
                try #require(try CodecTestSupport.codec.decode(.file(path: Corpus.file("apng/\(name)").path), options: Self.all).animation).frames.map(\.image)
            }
            let cleared = try frames("apngkit_over_background.apng"), kept = try frames("apngkit_over_none.apng")
            let restored = try frames("apngkit_over_previous.apng")
            #expect(cleared[0] == kept[0] && kept[0] == restored[0])
            let alpha = { (image: Image) in image.pixels[(40 * image.width + 75) * 4 + 3] }
            #expect(alpha(cleared[1]) == 128 && alpha(kept[1]) > 180, "\(alpha(cleared[1])) \(alpha(kept[1]))")
        }

        @Test func damagedAPNGsKeepTheFramesBeforeTheDamage() throws {
            // acTL promises 3 frames, 2 follow; then a sequence number out of order after frame 0.
            for (name, count) in [("apngkit-spec_048.png", 2), ("apngkit-spec_051.png", 1)] {
                let file = try Corpus.file("apng/\(name)")
                #expect(Self.frames(try CodecTestSupport.codec.decode(.file(path: file.path), options: Self.all)).count == count, "\(name)")
            }
            let bomb = try Corpus.file("apng/apngkit_malformed-size.apng")
            #expect(throws: ImageDecodingError.tooManyPixels(width: 524_288, height: 2_048, limit: 100_000_000)) {
                try CodecTestSupport.codec.decode(.file(path: bomb.path), options: Self.all)
            }
        }
    }
}

/// Expectations shared by the animation tests.
enum AnimationTestSupport {
    /// How long a frame of `centiseconds` shows (10 ms and less play as 100 ms).
    static func display(centiseconds: Int) -> Duration { .milliseconds(centiseconds <= 1 ? 100 : centiseconds * 10) }
}
