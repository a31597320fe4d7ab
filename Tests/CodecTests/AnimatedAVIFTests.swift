import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// Animations written as AVIF image sequences: every frame and its duration, read back by
/// Osprey's decoder and by Pillow's AVIF plugin (libavif), the pixels close to the GIF's.
@Suite("Animated AVIF")
struct AnimatedAVIFTests {
    @Test func aGIFsFramesAndTimingSurviveAsAnAVIFSequence() throws {
        let codec = ImageCodec()
        let gif = try codec.decode(.file(path: Corpus.file("gif/kingfisher_dancing-banana.gif").path), options: DecodingOptions(frames: .all))
        let animation = try #require(gif.animation)
        #expect(animation.frames.count == 8)
        let avif = try codec.encode(gif, options: EncodingOptions(format: .avif, quality: 0.9))
        let back = try #require(try codec.decode(.data(avif), options: DecodingOptions(frames: .all)).animation)
        #expect(back.frames.count == animation.frames.count)
        for (written, read) in zip(animation.frames, back.frames) {
            #expect(read.duration == written.duration, "durations in milliseconds, as given")
            let psnr = ReferenceDecoder.psnr(PixelConversion.converted(written.image, to: .rgba8).pixels,
                                             PixelConversion.converted(read.image, to: .rgba8).pixels)
            #expect(psnr > 28, "\(psnr) dB")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-sequence-\(UUID().uuidString).avif")
        defer { try? FileManager.default.removeItem(at: file) }
        try avif.write(to: file)
        let pillow = try ReferenceDecoder.decode([file], mode: .pillowFrames)[file.path]!.get()
        #expect(pillow.frameCount == 8, "Pillow's libavif reads every frame")
        #expect(pillow.width == gif.width && pillow.height == gif.height)
        // A still stays a single image, not a one-frame sequence.
        let still = try codec.encode(animation.frames[0].image, options: EncodingOptions(format: .avif))
        #expect(try codec.decode(.data(still), options: DecodingOptions(frames: .all)).animation == nil)
    }
}
