import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

@Suite("Smart crop and gravities")
struct AttentionTests {
    /// A flat grey field 300×100 with a patch drawn by `paint` at columns `x..<x+60`.
    static func field(patchAt x: Int, _ paint: (Int, Int) -> (UInt8, UInt8, UInt8)) throws -> Image {
        var pixels = [UInt8](repeating: 128, count: 300 * 100 * 3)
        for row in 20..<80 {
            for column in x..<x + 60 {
                let (r, g, b) = paint(column, row)
                let i = (row * 300 + column) * 3
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (r, g, b)
            }
        }
        return try Image(width: 300, height: 100, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test func theWindowFollowsDetailSkinAndSaturation() throws {
        let size = PixelSize(width: 100, height: 100)
        let checks = try Self.field(patchAt: 220) { x, y in (x / 4 + y / 4).isMultiple(of: 2) ? (255, 255, 255) : (0, 0, 0) }
        let detail = Attention.origin(in: checks, size: size)
        #expect(detail.x >= 180 && detail.x <= 200 && detail.y == 0, "\(detail)")
        let skin = try Self.field(patchAt: 10) { _, _ in (224, 172, 140) }
        #expect(Attention.origin(in: skin, size: size).x <= 10)
        let red = try Self.field(patchAt: 120) { _, _ in (230, 20, 30) }
        let saturated = Attention.origin(in: red, size: size).x
        #expect(saturated >= 80 && saturated <= 120, "\(saturated)")
        // Nothing of interest: the centre.
        let flat = try Self.field(patchAt: 0) { _, _ in (128, 128, 128) }
        #expect(Attention.origin(in: flat, size: size).x == 100)
    }

    @Test func pointsAndEdgesPlaceTheWindowInside() throws {
        let image = TestImages.solid(PixelSize(width: 300, height: 200))
        let size = PixelSize(width: 100, height: 100)
        #expect(GravityCrop.origin(in: image, size: size, gravity: .point(x: 0.5, y: 0)) == (100, 0))
        #expect(GravityCrop.origin(in: image, size: size, gravity: .point(x: 1, y: 1)) == (200, 100))
        #expect(GravityCrop.origin(in: image, size: size, gravity: .point(x: 0.1, y: 0.5)) == (0, 50))
        #expect(GravityCrop.crop(image, to: size, gravity: .attention).size == size)
    }
}
