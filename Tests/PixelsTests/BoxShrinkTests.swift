import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// The box pre-shrink against averages computed here, block by block.
@Suite("Box pre-shrink")
struct BoxShrinkTests {
    @Test(arguments: [(2, 2), (2, 1), (3, 2), (4, 4), (5, 3), (1, 4)])
    func blocksAreRoundedAveragesOfTheirPixels(_ factors: (Int, Int)) throws {
        var generator = SeededGenerator(seed: UInt64(factors.0 * 10 + factors.1))
        for format in [PixelFormat.gray8, .rgb8, .rgba8Premultiplied, .rgba8] {
            let (width, height) = (Int.random(in: 1...41, using: &generator), Int.random(in: 1...23, using: &generator))
            let channels = format.bytesPerPixel
            let pixels = (0..<width * height * channels).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let image = try Image(width: width, height: height, pixelFormat: format, pixels: pixels)
            let shrunk = BoxShrink.shrink(image, factorX: factors.0, factorY: factors.1)
            let (outWidth, outHeight) = ((width + factors.0 - 1) / factors.0, (height + factors.1 - 1) / factors.1)
            #expect(shrunk.size == PixelSize(width: outWidth, height: outHeight) && shrunk.pixelFormat == format)
            var expected: [UInt8] = []
            for by in 0..<outHeight {
                for bx in 0..<outWidth {
                    let ys = by * factors.1..<min(height, (by + 1) * factors.1), xs = bx * factors.0..<min(width, (bx + 1) * factors.0)
                    let cells = ys.flatMap { y in xs.map { x in (y * width + x) * channels } }
                    let n = cells.count
                    if format == .rgba8 {
                        let alpha = cells.reduce(0) { $0 + Int(pixels[$1 + 3]) }
                        for c in 0..<3 {
                            let sum = cells.reduce(0) { $0 + Int(pixels[$1 + c]) * Int(pixels[$1 + 3]) }
                            expected.append(alpha == 0 ? 0 : UInt8((sum + alpha / 2) / alpha))
                        }
                        expected.append(UInt8((alpha + n / 2) / n))
                    } else {
                        for c in 0..<channels { expected.append(UInt8((cells.reduce(0) { $0 + Int(pixels[$1 + c]) } + n / 2) / n)) }
                    }
                }
            }
            #expect(shrunk.pixels == expected, "\(format) \(width)×\(height) in blocks of \(factors)")
        }
    }
}
