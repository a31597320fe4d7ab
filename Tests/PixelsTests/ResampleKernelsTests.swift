import CResample
import Foundation
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// The fixed-point kernels: every path the CPU has gives the scalar path's bytes, and those
/// are the plan's exact sums, rounded once, within a level.
@Suite("Fixed-point resampling kernels")
struct ResampleKernelsTests {
    struct Case {
        let width, height, channels, newWidth, newHeight: Int
        let pixels: [UInt8]
    }

    /// 200 seeded cases: sizes 1…300, up and down, ratios to 16, gray, RGB and RGBA.
    static let cases: [Case] = {
        var generator = SeededGenerator(seed: 53)
        func side(_ source: Int) -> Int {
            max(1, min(600, Int((Double(source) / Double.random(in: 1.0 / 16...16, using: &generator)).rounded())))
        }
        return (0..<200).map { _ in
            let width = Int.random(in: 1...300, using: &generator), height = Int.random(in: 1...300, using: &generator)
            let channels = [1, 3, 4].randomElement(using: &generator)!
            let pixels = (0..<width * height * channels).map { _ in UInt8.random(in: 0...255, using: &generator) }
            return Case(width: width, height: height, channels: channels, newWidth: side(width), newHeight: side(height), pixels: pixels)
        }
    }()

    /// The case through ``FixedPointResampler`` on `path`; four channels are taken as
    /// premultiplied (the byte kernels see them as they are) unless `straight`.
    static func resize(_ image: Case, path: Int32, straight: Bool = false) -> [UInt8] {
        let format: PixelFormat = image.channels == 1 ? .gray8 : image.channels == 3 ? .rgb8 : straight ? .rgba8 : .rgba8Premultiplied
        let source = try! Image(width: image.width, height: image.height, pixelFormat: format, pixels: image.pixels)
        return FixedPointResampler.resize(source, to: PixelSize(width: image.newWidth, height: image.newHeight), path: path)!
    }

    @Test func everyPathGivesTheScalarPathsBytes() {
        let paths = [OSP_RESAMPLE_SSE2, OSP_RESAMPLE_AVX2].map(Int32.init).filter { osp_resample_path_available($0) != 0 }
        #expect(!paths.isEmpty, "an x86-64 machine has SSE2")
        for (index, image) in Self.cases.enumerated() {
            let scalar = Self.resize(image, path: Int32(OSP_RESAMPLE_SCALAR))
            let straight = image.channels == 4 ? Self.resize(image, path: Int32(OSP_RESAMPLE_SCALAR), straight: true) : []
            for path in paths {
                #expect(Self.resize(image, path: path) == scalar, "case \(index): \(image.width)×\(image.height)×\(image.channels) → \(image.newWidth)×\(image.newHeight), path \(path)")
                if image.channels == 4 {
                    #expect(Self.resize(image, path: path, straight: true) == straight, "case \(index) as straight alpha, path \(path)")
                }
            }
        }
    }

    @Test func theBytesAreThePlansSumsWithinALevel() {
        for image in Self.cases.prefix(8) {
            let down = FixedPointContributions(source: image.height, destination: image.newHeight)
            let across = FixedPointContributions(source: image.width, destination: image.newWidth)
            let got = Self.resize(image, path: Int32(OSP_RESAMPLE_SCALAR))
            let one = Double(FixedPointContributions.one)
            var worst = 0.0
            for y in 0..<image.newHeight {
                for x in 0..<image.newWidth {
                    for c in 0..<image.channels {
                        var sum = 0.0
                        for (i, wx) in across.weights(of: x).enumerated() {
                            var column = 0.0
                            for (j, wy) in down.weights(of: y).enumerated() {
                                let sx = Int(across.starts[x]) + i, sy = Int(down.starts[y]) + j
                                column += Double(wy) / one * Double(image.pixels[(sy * image.width + sx) * image.channels + c])
                            }
                            sum += Double(wx) / one * column
                        }
                        let expected = min(255, max(0, sum.rounded()))
                        worst = max(worst, abs(expected - Double(got[(y * image.newWidth + x) * image.channels + c])))
                    }
                }
            }
            #expect(worst <= 1, "\(image.width)×\(image.height) → \(image.newWidth)×\(image.newHeight): \(worst) levels")
        }
    }

    @Test func aSolidColourStaysExact() {
        let image = Case(width: 97, height: 61, channels: 4, newWidth: 13, newHeight: 200,
                         pixels: Array(repeating: [200, 10, 255, 0], count: 97 * 61).flatMap { $0 })
        for path in [OSP_RESAMPLE_SCALAR, OSP_RESAMPLE_SSE2, OSP_RESAMPLE_AVX2].map(Int32.init) where osp_resample_path_available(path) != 0 {
            #expect(Self.resize(image, path: path) == Array(repeating: [200, 10, 255, 0], count: 13 * 200).flatMap { $0 })
        }
    }
}
