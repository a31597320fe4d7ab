import Foundation
import OspreyDomain

/// A ThumbHash (evanw/thumbhash): an image's colours, alpha and aspect ratio in about 25
/// bytes, sharper than a BlurHash, decoded by a page or an app into a placeholder.
///
/// ```swift
/// let hash = ThumbHash.encode(thumbnail).base64EncodedString()
/// ```
public enum ThumbHash {
    /// The hash of `image`, resampled first to fit 100 × 100 (the format's largest input).
    public static func encode(_ image: Image) -> Data {
        var image = image
        if image.width > 100 || image.height > 100 {
            image = Resampler.resize(image, to: image.size.scaled(toFit: PixelSize(width: 100, height: 100), mode: .fit))
        }
        let rgba = PixelConversion.converted(image, to: .rgba8)
        let (w, h) = (rgba.width, rgba.height)
        var pixels: [(r: Double, g: Double, b: Double, a: Double)] = []
        pixels.reserveCapacity(w * h)
        for row in 0..<h {
            for column in 0..<w {
                let at = row * rgba.bytesPerRow + column * 4
                pixels.append((Double(rgba.pixels[at]) / 255, Double(rgba.pixels[at + 1]) / 255, Double(rgba.pixels[at + 2]) / 255,
                               Double(rgba.pixels[at + 3]) / 255))
            }
        }
        var (averageR, averageG, averageB, averageA) = (0.0, 0.0, 0.0, 0.0)
        for pixel in pixels {
            averageR += pixel.a * pixel.r
            averageG += pixel.a * pixel.g
            averageB += pixel.a * pixel.b
            averageA += pixel.a
        }
        if averageA > 0 { (averageR, averageG, averageB) = (averageR / averageA, averageG / averageA, averageB / averageA) }
        let hasAlpha = averageA < Double(w * h)
        let limit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(w, h))
        let lx = max(1, Int(round(limit * Double(w) / longest))), ly = max(1, Int(round(limit * Double(h) / longest)))
        var l: [Double] = [], p: [Double] = [], q: [Double] = [], a: [Double] = []
        for pixel in pixels {  // composited over the average colour, as luminance, yellow-blue, red-green
            let r = averageR * (1 - pixel.a) + pixel.a * pixel.r
            let g = averageG * (1 - pixel.a) + pixel.a * pixel.g
            let b = averageB * (1 - pixel.a) + pixel.a * pixel.b
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(pixel.a)
        }
        func channel(_ values: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    var f = 0.0
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lc = channel(l, max(3, lx), max(3, ly)), pc = channel(p, 3, 3), qc = channel(q, 3, 3)
        let ac = hasAlpha ? channel(a, 5, 5) : nil
        let landscape = w > h
        // JavaScript's Math.round: halves go up.
        func round(_ value: Double) -> Int { Int((value + 0.5).rounded(.down)) }
        let header24 = round(63 * lc.dc) | round(31.5 + 31.5 * pc.dc) << 6 | round(31.5 + 31.5 * qc.dc) << 12
            | round(31 * lc.scale) << 18 | (hasAlpha ? 1 : 0) << 23
        let header16 = (landscape ? ly : lx) | round(63 * pc.scale) << 3 | round(63 * qc.scale) << 9 | (landscape ? 1 : 0) << 15
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16 & 255),
                             UInt8(header16 & 255), UInt8(header16 >> 8 & 255)]
        if let ac { hash.append(UInt8(round(15 * ac.dc) | round(15 * ac.scale) << 4)) }
        let start = hash.count
        var index = 0
        for factors in [lc.ac, pc.ac, qc.ac] + (ac.map { [$0.ac] } ?? []) {
            for factor in factors {
                let at = start + index >> 1
                if at >= hash.count { hash.append(0) }
                hash[at] |= UInt8(round(15 * factor) << ((index & 1) << 2))
                index += 1
            }
        }
        return Data(hash)
    }
}
