import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// An image's colours, quantised by libimagequant: the palette imgproxy's `/info` answers,
/// most used first, and the six dominant colours it names (vibrant, muted, and their light
/// and dark kinds), chosen as Android's Palette and node-vibrant choose them.
public struct ImagePalette: Sendable {
    /// A colour and how many pixels it stands for.
    public struct Swatch: Hashable, Sendable {
        public let color: ImagePlaceholder.Color
        public let population: Int
    }

    /// The colours, most used first.
    public let swatches: [Swatch]

    /// The palette of `image` with at most `maxColors` (2…256) colours; `nil` when it cannot be made.
    public init?(_ image: Image, maxColors: Int) {
        guard (2...256).contains(maxColors) else { return nil }
        let rgba = PixelConversion.converted(image, to: .rgba8)
        var packed = [UInt8]()
        packed.reserveCapacity(rgba.width * rgba.height * 4)
        for row in 0..<rgba.height {
            packed += rgba.pixels[row * rgba.bytesPerRow..<row * rgba.bytesPerRow + rgba.width * 4]
        }
        var colors = [UInt8](repeating: 0, count: 256 * 4), counts = [UInt32](repeating: 0, count: 256)
        let found = Int(osp_palette(packed, UInt32(rgba.width), UInt32(rgba.height), Int32(maxColors), &colors, &counts))
        guard found > 0 else { return nil }
        var made: [Swatch] = []
        for index in 0..<found where counts[index] > 0 {
            let at = index * 4
            let color = ImagePlaceholder.Color(red: colors[at], green: colors[at + 1], blue: colors[at + 2], alpha: colors[at + 3])
            made.append(Swatch(color: color, population: Int(counts[index])))
        }
        swatches = made.sorted { $0.population > $1.population }
    }

    /// The dominant colours by kind (`vibrant`, `light_vibrant`, `dark_vibrant`, `muted`,
    /// `light_muted`, `dark_muted`), each the swatch nearest its target saturation and
    /// lightness, weighted by use; a kind no swatch fits is missing.
    public var dominantColors: [String: ImagePlaceholder.Color] {
        let targets: [(name: String, lightness: (min: Double, target: Double, max: Double), saturation: (min: Double, target: Double, max: Double))] = [
            ("vibrant", (0.3, 0.5, 0.7), (0.35, 1, 1)), ("light_vibrant", (0.55, 0.74, 1), (0.35, 1, 1)),
            ("dark_vibrant", (0, 0.26, 0.45), (0.35, 1, 1)), ("muted", (0.3, 0.5, 0.7), (0, 0.3, 0.4)),
            ("light_muted", (0.55, 0.74, 1), (0, 0.3, 0.4)), ("dark_muted", (0, 0.26, 0.45), (0, 0.3, 0.4)),
        ]
        let opaque = swatches.filter { $0.color.alpha >= 128 }
        let most = Double(opaque.map(\.population).max() ?? 1)
        var chosen: [String: ImagePlaceholder.Color] = [:]
        var used = Set<ImagePlaceholder.Color>()
        for target in targets {
            var best: (score: Double, color: ImagePlaceholder.Color)?
            for swatch in opaque where !used.contains(swatch.color) {
                let (saturation, lightness) = Self.saturationAndLightness(swatch.color)
                guard (target.saturation.min...target.saturation.max).contains(saturation),
                      (target.lightness.min...target.lightness.max).contains(lightness) else { continue }
                let score = (1 - abs(saturation - target.saturation.target)) * 3 + (1 - abs(lightness - target.lightness.target)) * 6.5
                    + Double(swatch.population) / most * 0.5
                if score > best?.score ?? -1 { best = (score, swatch.color) }
            }
            if let best {
                chosen[target.name] = best.color
                used.insert(best.color)
            }
        }
        return chosen
    }

    /// HSL's saturation and lightness, 0…1.
    static func saturationAndLightness(_ color: ImagePlaceholder.Color) -> (Double, Double) {
        let r = Double(color.red) / 255, g = Double(color.green) / 255, b = Double(color.blue) / 255
        let high = max(r, g, b), low = min(r, g, b)
        let lightness = (high + low) / 2
        guard high != low else { return (0, lightness) }
        let delta = high - low
        return (lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low), lightness)
    }
}
