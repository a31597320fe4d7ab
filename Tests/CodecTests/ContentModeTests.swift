import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// `fill` gives exactly the target size, as Nuke's and Kingfisher's users expect.
    @Suite("Content modes")
    struct ContentModeTests {
        @Test func fillIsExactlyTheTargetForStillsAndEveryFrame() throws {
            let target = PixelSize(width: 200, height: 200)
            for name in ["photos/craft-beer.jpg", "exif-orientation/Portrait_6.jpg", "icc/nuke_image-p3.jpg", "gif/nuke_cat.gif"] {
                let file = try Corpus.file(name)
                let options = DecodingOptions(targetSize: target, contentMode: .fill, colorHandling: .preserve, frames: .all)
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: options)
                #expect(image.size == target, "\(name): \(image.size)")
                #expect(AnimationTests.frames(image).allSatisfy { $0.image.size == target }, "\(name)")
                let fit = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: target))
                #expect(fit.width <= 200 && fit.height <= 200 && (fit.width == 200 || fit.height == 200), "\(name): fit \(fit.size)")
            }
            // The crop keeps the profile a preserving request carries.
            let p3 = try CodecTestSupport.codec.decode(.file(path: Corpus.file("icc/nuke_image-p3.jpg").path),
                                                       options: DecodingOptions(targetSize: target, contentMode: .fill, colorHandling: .preserve))
            #expect(p3.colorProfile != nil)
            // Never enlarged: a 32×32 image filled to 200×200 stays 32×32.
            let small = try CodecTestSupport.codec.decode(.file(path: Corpus.file("pngsuite/basn2c08.png").path),
                                                          options: DecodingOptions(targetSize: target, contentMode: .fill))
            #expect(small.size == PixelSize(width: 32, height: 32))
        }

        @Test func fillKeepsThePartItsGravityPicks() throws {
            let file = try Corpus.file("photos/craft-beer.jpg").path
            let target = PixelSize(width: 120, height: 120)
            let info = try CodecTestSupport.codec.info(.file(path: file))
            let cover = PixelSize(width: info.width, height: info.height).scaled(toFit: target, mode: .fill)
            let whole = try CodecTestSupport.codec.decode(.file(path: file), options: DecodingOptions(targetSize: cover))
            #expect(whole.size == cover)
            let slack = (x: cover.width - 120, y: cover.height - 120)
            for (gravity, origin) in [(CropGravity.point(x: 0, y: 0), (0, 0)), (.point(x: 1, y: 1), (slack.x, slack.y)),
                                      (.centre, (slack.x / 2, slack.y / 2))] {
                let filled = try CodecTestSupport.codec.decode(.file(path: file), options: DecodingOptions(
                    targetSize: target, contentMode: .fill, gravity: gravity))
                #expect(filled == GravityCrop.crop(whole, origin: origin, size: target), "\(gravity)")
            }
        }
    }
}
