import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import Testing

/// The dominant colours /info answers: the kinds a photo's swatches fit, and with
/// `build_missed` the others made from them at their own lightness and saturation.
@Suite("Image palette")
struct ImagePaletteTests {
    /// 64 × 64 of mid grey with a strip of `strip` 8 pixels high.
    static func image(strip: [UInt8]) throws -> Image {
        var pixels = [UInt8](repeating: 128, count: 64 * 64 * 3)
        for pixel in 0..<(64 * 8) { pixels.replaceSubrange(pixel * 3..<pixel * 3 + 3, with: strip) }
        return try Image(width: 64, height: 64, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test func missingKindsAreMadeOnlyWhenAsked() throws {
        let palette = try #require(ImagePalette(try Self.image(strip: [200, 30, 30]), maxColors: 16))
        let found = palette.dominantColors
        #expect(found.keys.sorted() == ["muted", "vibrant"], "\(found)")
        let built = palette.dominantColors(buildingMissed: true)
        #expect(built.count == 6 && built["muted"] == found["muted"] && built["vibrant"] == found["vibrant"])
        let targets = ["light_vibrant": 0.74, "dark_vibrant": 0.26, "light_muted": 0.74, "dark_muted": 0.26]
        for (kind, lightness) in targets {
            let color = try #require(built[kind])
            let (r, g, b) = (Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
            let (high, low) = (max(r, g, b), min(r, g, b))
            #expect(abs((high + low) / 2 - lightness) < 0.01, "\(kind) \(color)")
            // Vibrant kinds come from the red strip's hue: red leads; muted ones stay near grey.
            if kind.hasSuffix("vibrant") { #expect(color.red > color.green && color.green == color.blue, "\(kind) \(color)") }
            if kind.hasSuffix("muted") { #expect(high - low < 0.31, "\(kind) \(color)") }
        }
    }
}
