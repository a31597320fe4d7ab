import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// Animated WebP, and the frame and pixel limits every animated format shares.
extension CPUBoundCodecTests.AnimationTests {
    // MARK: WebP

    static let webps = ["pillow_iss634.webp", "sdwebimage_TestImageAnimated.webp", "sdwebimage_TestImageBlendAnimated.webp",
                        "sharp_rotating-squares.webp"]

    @Test func animatedWebPFramesMatchPillow() throws {
        try Self.expectFramesMatchPillow(Self.webps.map { (try Corpus.file("webp/animated/\($0)"), 0) })
    }

    @Test func anAnimationResizedAndWrittenAsWebPReadsBackWithItsFramesAndTimes() throws {
        let file = try Corpus.file("gif/thumbor_Rotating_earth_large.gif")
        let options = DecodingOptions(targetSize: PixelSize(width: 200, height: 200), frames: .all)
        let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: options)
        let webp = try CodecTestSupport.codec.encode(image, options: EncodingOptions(format: .webp, quality: 0.9))
        let back = try #require(try CodecTestSupport.codec.decode(.data(webp), options: Self.all).animation)
        let original = try #require(image.animation)
        #expect(back.frames.count == 44 && back.frames[0].image.size == PixelSize(width: 200, height: 200))
        #expect(back.frames.map(\.duration) == original.frames.map(\.duration))
        #expect(back.loopCount == 65535, "WebP's loop field holds at most 65535 plays")
        for (a, b) in zip(original.frames, back.frames) {
            #expect(ReferenceDecoder.psnr(Self.overWhite(a.image.pixels), Self.overWhite(b.image.pixels)) >= 30)
        }
    }

    // MARK: Values and limits

    @Test func aStillIsTheDefaultAndCostsOneFrame() throws {
        let file = try Corpus.file("gif/nuke_cat.gif")
        let still = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
        #expect(still.animation == nil)
        let animated = try CodecTestSupport.codec.decode(.file(path: file.path), options: Self.all)
        #expect(still.pixels == animated.pixels, "the first frame either way")
        #expect(animated.cost == 22 * still.cost, "the memory cost counts every frame")
    }

    @Test func frameAndPixelLimitsAreCheckedBeforeDecoding() throws {
        let file = try Corpus.file("gif/thumbor_Rotating_earth_large.gif")
        #expect(throws: ImageDecodingError.tooManyFrames(count: 11, limit: 10)) {
            try ImageCodec(limits: DecodingLimits(maxFrames: 10)).decode(.file(path: file.path), options: Self.all)
        }
        #expect(throws: ImageDecodingError.animationTooLarge(pixels: 400 * 400 * 44, limit: 1_000_000)) {
            try ImageCodec(limits: DecodingLimits(maxAnimationPixels: 1_000_000)).decode(.file(path: file.path), options: Self.all)
        }
        // The first frame alone is within any frame limit.
        #expect(try ImageCodec(limits: DecodingLimits(maxFrames: 1)).decode(.file(path: file.path), options: DecodingOptions()).width == 400)
        // 10,000 frames on a 65535² screen: refused from the screen descriptor.
        #expect(throws: ImageDecodingError.tooManyPixels(width: 65_535, height: 65_535, limit: 100_000_000)) {
            try CodecTestSupport.codec.decode(.data(CraftedImages.gif(frames: 10_000, side: 65_535)), options: Self.all)
        }
        // 10,000 frames on a small screen: refused by the frame limit after a scan that decodes nothing.
        #expect(throws: ImageDecodingError.tooManyFrames(count: 1_001, limit: 1_000)) {
            try CodecTestSupport.codec.decode(.data(CraftedImages.gif(frames: 10_000, side: 4_000)), options: Self.all)
        }
    }

    static func sections(of conf: String) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        var current = ""
        for line in conf.split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") { current = String(line.dropFirst().dropLast()); continue }
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { result[current, default: [:]][parts[0]] = parts[1] }
        }
        return result
    }

    static func clearingTransparent(_ rgba: [UInt8]) -> [UInt8] {
        var out = rgba
        for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 { out[i] = 0; out[i + 1] = 0; out[i + 2] = 0 }
        return out
    }
}
