import Foundation
import OspreyDomain

/// A BlurHash (woltapp/blurhash): an image's colours as a few cosine components, in a short
/// base-83 string a page or an app paints as a placeholder while the image loads.
///
/// ```swift
/// let hash = BlurHash.encode(thumbnail, x: 4, y: 3)  // "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
/// ```
public enum BlurHash {
    /// The hash of `image` with `x` × `y` components (each 1…9; imgproxy's default 4 × 3).
    /// Any size works; 32 to 100 pixels a side gives the same hash as the full image, for a
    /// thousandth of the work.
    public static func encode(_ image: Image, x: Int = 4, y: Int = 3) -> String {
        let cx = min(max(x, 1), 9), cy = min(max(y, 1), 9)
        let rgb = PixelConversion.converted(image, to: .rgb8)
        let (width, height) = (rgb.width, rgb.height)
        let linear = (0...255).map { sRGBToLinear(Double($0) / 255) }
        var factors: [(Double, Double, Double)] = []
        var columns = [Double](repeating: 0, count: width), rows = [Double](repeating: 0, count: height)
        for j in 0..<cy {
            for row in 0..<height { rows[row] = cos(Double.pi * Double(j) * Double(row) / Double(height)) }
            for i in 0..<cx {
                for column in 0..<width { columns[column] = cos(Double.pi * Double(i) * Double(column) / Double(width)) }
                var (r, g, b) = (0.0, 0.0, 0.0)
                for row in 0..<height {
                    let start = row * rgb.bytesPerRow
                    for column in 0..<width {
                        let basis = columns[column] * rows[row]
                        let at = start + column * 3
                        r += basis * linear[Int(rgb.pixels[at])]
                        g += basis * linear[Int(rgb.pixels[at + 1])]
                        b += basis * linear[Int(rgb.pixels[at + 2])]
                    }
                }
                let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83((cx - 1) + (cy - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        let maximum: Double
        if ac.isEmpty {
            maximum = 1
            hash += base83(0, length: 1)
        } else {
            let actual = ac.map { max(abs($0.0), abs($0.1), abs($0.2)) }.max()!
            let quantised = Int(max(0, min(82, (actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        }
        let dc = factors[0]
        hash += base83(linearToSRGB(dc.0) << 16 | linearToSRGB(dc.1) << 8 | linearToSRGB(dc.2), length: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                let signed = value / maximum
                let root = (signed < 0 ? -1 : 1) * pow(abs(signed), 0.5)
                return Int(max(0, min(18, (root * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), length: 2)
        }
        return hash
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static func base83(_ value: Int, length: Int) -> String {
        String((1...length).map { digit in alphabet[(value / Int(pow(83, Double(length - digit)))) % 83] })
    }

    static func sRGBToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    static func linearToSRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return v <= 0.003_130_8 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
