import Foundation
import OspreyDomain
@_spi(Reference) import OspreyPixels
import OspreyTesting
import Testing

/// `Resampler.resize` (box pre-shrink, then the fixed-point kernels) against the float
/// resampler it replaced, on camera photographs; and alpha at the kernels' finer scale.
@Suite("Resampler in fixed point")
struct FixedPointResamplerTests {
    /// 640×480 from the middle of three camera photos, decoded by Pillow: real detail at full
    /// resolution, small enough for the float reference in a debug build.
    static let photos: [Image] = {
        let files = try! ["photos/canon_hdr_NO.jpg", "photos/jolla.jpg", "photos/HMD_Nokia_8.3_5G.jpg"].map(Corpus.file)
        let decoded = try! ReferenceDecoder.decode(files, mode: .pillow)
        return files.map { file in
            let pixels = try! decoded[file.path]!.get()
            let whole = try! Image(width: pixels.width, height: pixels.height, pixelFormat: pixels.channels == 4 ? .rgba8 : .rgb8,
                                   pixels: pixels.bytes)
            return GravityCrop.crop(whole, to: PixelSize(width: 640, height: 480))
        }
    }()

    @Test(arguments: [1.25, 1.67, 4, 8, 0.6])
    func photosStayWithinALevelOfTheFloatResampler(_ ratio: Double) {
        for (index, photo) in Self.photos.enumerated() {
            let size = PixelSize(width: Int((640 / ratio).rounded()), height: Int((480 / ratio).rounded()))
            let fixed = Resampler.resize(photo, to: size)
            let reference = FloatResampler.resize(Resampler.boxShrunk(photo, for: size), to: size)
            #expect(fixed.size == size && reference.size == size)
            let worst = zip(fixed.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            let psnr = ReferenceDecoder.psnr(fixed.pixels, reference.pixels)
            #expect(worst <= 1 && psnr >= 55, "photo \(index) at 1/\(ratio): \(worst) levels, \(psnr) dB")
        }
    }

    @Test func aLargeReductionIsAveragedFirstAndStaysCloseToLanczosAlone() {
        let photo = Self.photos[0]
        let size = PixelSize(width: 80, height: 60)
        let shrunk = Resampler.boxShrunk(photo, for: size)
        #expect(shrunk.size == PixelSize(width: 160, height: 120), "blocks of 4 leave twice the target")
        #expect(Resampler.boxShrunk(photo, for: PixelSize(width: 200, height: 150)).size == photo.size, "no blocks under a reduction by 4")
        let psnr = ReferenceDecoder.psnr(Resampler.resize(photo, to: size).pixels, FloatResampler.resize(photo, to: size).pixels)
        #expect(psnr >= 35, "\(psnr) dB from Lanczos over every source pixel")
    }

    @Test func premultipliedInputIsNotMultipliedAgain() throws {
        // A half-transparent orange, already premultiplied (as SVG decodes give it).
        let pixel: [UInt8] = [100, 50, 25, 128]
        let image = try Image(width: 40, height: 30, pixelFormat: .rgba8Premultiplied, pixels: Array(repeating: pixel, count: 1200).flatMap { $0 })
        for size in [PixelSize(width: 13, height: 7), PixelSize(width: 9, height: 5), PixelSize(width: 70, height: 45)] {
            let resized = Resampler.resize(image, to: size)
            #expect(resized.pixelFormat == .rgba8Premultiplied)
            #expect(resized.pixels == Array(repeating: pixel, count: size.width * size.height).flatMap { $0 }, "\(size)")
        }
        // Taken as straight alpha, the same bytes would have come back the same: the colour is
        // divided back out. Multiplying premultiplied colour again would have halved it.
        let straight = try Image(width: 40, height: 30, pixelFormat: .rgba8, pixels: image.pixels)
        #expect(Array(Resampler.resize(straight, to: PixelSize(width: 13, height: 7)).pixels.prefix(4)) == pixel)
        #expect(Array(FloatResampler.resize(image, to: PixelSize(width: 13, height: 7)).pixels.prefix(4)) == pixel)
    }

    @Test func straightAlphaStaysExactFromAlphaFour() throws {
        // Premultiplied colour is kept to 1/64 of a level: divided by alpha 1 or 2 out of 255,
        // that is a level or two on a pixel that barely shows; from 4 on, none.
        for alpha in [1, 2, 4, 37, 128, 173, 254, 255] as [UInt8] {
            let pixel: [UInt8] = [201, 7, 99, alpha]
            let image = try Image(width: 33, height: 21, pixelFormat: .rgba8, pixels: Array(repeating: pixel, count: 33 * 21).flatMap { $0 })
            for size in [PixelSize(width: 10, height: 4), PixelSize(width: 5, height: 3), PixelSize(width: 50, height: 40)] {
                let pixels = Resampler.resize(image, to: size).pixels
                let worst = pixels.indices.map { abs(Int(pixels[$0]) - Int(pixel[$0 % 4])) }.max() ?? 0
                #expect(worst <= (alpha >= 4 ? 0 : 3 - Int(alpha)), "alpha \(alpha) at \(size): \(worst) levels")
            }
        }
    }
}
