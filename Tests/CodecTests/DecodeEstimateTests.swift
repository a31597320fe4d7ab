import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// What the header says a decode will hold, which a memory budget admits work by.
    @Suite("Decode estimates")
    struct DecodeEstimateTests {
        let codec = ImageCodec()

        @Test func aJPEGIsEstimatedAtItsDCTScaleWithAProgressiveFilesCoefficients() throws {
            let progressive = try Corpus.file("jpeg/libjpeg-turbo/testimgp.jpg")
            let baseline = try Corpus.file("jpeg/libjpeg-turbo/testorig.jpg")
            let small = DecodingOptions(targetSize: PixelSize(width: 40, height: 40))
            let scaled = try #require(try codec.decodeEstimate(of: .file(path: progressive.path), options: small))
            #expect(scaled.size == PixelSize(width: 57, height: 38) && scaled.bytesPerPixel == 3, "227×149 at 1/4 covers 40×40")
            // 4:2:0 blocks of 8×8 at two bytes a coefficient: about three bytes a source pixel.
            let area = 227 * 149
            #expect((area * 2...area * 4).contains(scaled.workingBytes), "\(scaled.workingBytes) bytes of coefficients")
            let whole = try #require(try codec.decodeEstimate(of: .file(path: baseline.path), options: DecodingOptions()))
            #expect(whole.size == PixelSize(width: 227, height: 149) && whole.workingBytes == 0, "a baseline file holds rows only")
        }

        @Test func otherFormatsAreEstimatedAtTheirHeadersSizeAndFrames() throws {
            let alpha = try Corpus.file("pngsuite/basn6a08.png")
            let png = try #require(try codec.decodeEstimate(of: .file(path: alpha.path), options: DecodingOptions()))
            #expect(png == DecodeEstimate(size: PixelSize(width: 32, height: 32), frames: 1, bytesPerPixel: 4))
            let animation = try Corpus.file("gif/kingfisher_dancing-banana.gif")
            let info = try codec.info(.file(path: animation.path))
            let still = try #require(try codec.decodeEstimate(of: .file(path: animation.path), options: DecodingOptions()))
            let all = try #require(try codec.decodeEstimate(of: .file(path: animation.path), options: DecodingOptions(frames: .all)))
            #expect(info.frameCount > 1 && still.frames == 1 && all.frames == info.frameCount && all.bytes == still.bytes * info.frameCount)
        }
    }
}
