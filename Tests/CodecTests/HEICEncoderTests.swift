import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// HEIC written by libheif's HEVC encoder: a real HEIC (`ftyp` brand `heic`) of the size
/// asked, read back by libheif and libde265 close to what was written, its alpha kept.
@Suite("HEIC encoder")
struct HEICEncoderTests {
    @Test func aPhotoIsWrittenAsHEICAndReadsBackClose() throws {
        let codec = ImageCodec()
        let photo = try codec.decode(.file(path: Corpus.file("photos/jolla.jpg").path),
                                     options: DecodingOptions(targetSize: PixelSize(width: 640, height: 640)))
        let heic = try codec.encode(photo, options: EncodingOptions(format: .heic, quality: 0.8))
        #expect(heic[4..<12].elementsEqual("ftypheic".utf8), "an HEIC file")
        #expect(try codec.detectFormat(of: heic.prefix(64)) == .heic)
        let back = try codec.decode(.data(heic), options: DecodingOptions())
        #expect(back.size == photo.size)
        let psnr = ReferenceDecoder.psnr(PixelConversion.converted(photo, to: .rgb8).pixels, PixelConversion.converted(back, to: .rgb8).pixels)
        #expect(psnr > 30, "\(psnr) dB")
        let smaller = try codec.encode(photo, options: EncodingOptions(format: .heic, quality: 0.3))
        #expect(smaller.count < heic.count, "quality is passed on")
    }

    @Test func alphaIsKept() throws {
        let codec = ImageCodec()
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = 200; pixels[index + 1] = 40; pixels[index + 2] = 40
            pixels[index + 3] = index / 4 % 64 < 32 ? 255 : 0
        }
        let image = try Image(width: 64, height: 64, pixelFormat: .rgba8, pixels: pixels)
        let back = try codec.decode(.data(try codec.encode(image, options: EncodingOptions(format: .heic, quality: 0.9))), options: DecodingOptions())
        #expect(back.pixelFormat.hasAlpha)
        let rgba = PixelConversion.converted(back, to: .rgba8).pixels
        #expect(rgba[3] > 240 && rgba[40 * 4 + 3] < 15, "opaque left half, transparent right half")
    }
}
