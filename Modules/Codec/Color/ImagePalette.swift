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
    public var dominantColors: [String: ImagePlaceholder.Color] { dominantColors(buildingMissed: false) }

    /// ``dominantColors``; with `buildingMissed` (imgproxy's `build_missed`), a missing kind is
    /// made from a found one, as node-vibrant makes its empty swatches: the nearest kind's
    /// colour (the same saturation first, else the same lightness, else the most used
    /// swatch), its hue kept, its lightness set to the kind's target and its saturation
    /// brought into the kind's range. Nothing is made from an image with no opaque colour.
    public func dominantColors(buildingMissed: Bool) -> [String: ImagePlaceholder.Color] {
        typealias Range3 = (min: Double, target: Double, max: Double)
        let targets: [(name: String, lightness: Range3, saturation: Range3)] = [
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
                let (_, saturation, lightness) = Self.hsl(swatch.color)
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
        guard buildingMissed, let fallback = opaque.first?.color else { return chosen }
        let found = chosen
        for target in targets where found[target.name] == nil {
            let family = target.saturation.min > 0 ? "vibrant" : "muted"
            let sameSaturation = targets.filter { $0.name.hasSuffix(family) }.compactMap { found[$0.name] }
            let sameLightness = targets.filter { $0.lightness == target.lightness }.compactMap { found[$0.name] }
            let seed = sameSaturation.first ?? sameLightness.first ?? fallback
            let (hue, saturation, _) = Self.hsl(seed)
            chosen[target.name] = Self.color(hue: hue, saturation: min(max(saturation, target.saturation.min), target.saturation.max),
                                             lightness: target.lightness.target)
        }
        return chosen
    }

    /// HSL's hue (0…6, a sixth of the circle a unit), saturation and lightness (0…1).
    static func hsl(_ color: ImagePlaceholder.Color) -> (hue: Double, saturation: Double, lightness: Double) {
        let r = Double(color.red) / 255, g = Double(color.green) / 255, b = Double(color.blue) / 255
        let high = max(r, g, b), low = min(r, g, b)
        let lightness = (high + low) / 2
        guard high != low else { return (0, 0, lightness) }
        let delta = high - low
        let hue = high == r ? (g - b) / delta + (g < b ? 6 : 0) : high == g ? (b - r) / delta + 2 : (r - g) / delta + 4
        return (hue, lightness > 0.5 ? delta / (2 - high - low) : delta / (high + low), lightness)
    }

    /// The opaque colour of `hue` (0…6), `saturation` and `lightness` (0…1).
    static func color(hue: Double, saturation: Double, lightness: Double) -> ImagePlaceholder.Color {
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let x = chroma * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(hue) % 6 {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        let channel = { (value: Double) in UInt8(max(0, min(255, ((value + m) * 255).rounded()))) }
        return ImagePlaceholder.Color(red: channel(r), green: channel(g), blue: channel(b), alpha: 255)
    }
}
