import OspreyDomain

/// Finds the most interesting window of an image, as libvips' `attention` smart crop does:
/// each pixel scores for edges (the luminance's Laplacian), for skin tones and for strong
/// saturation; the window whose columns and rows hold the most score wins.
public enum Attention {
    /// The top left corner of the `size` window with the most interest in `image`.
    public static func origin(in image: Image, size: PixelSize) -> (x: Int, y: Int) {
        let slackX = max(0, image.width - size.width), slackY = max(0, image.height - size.height)
        guard slackX > 0 || slackY > 0 else { return (0, 0) }
        let (columns, rows) = profiles(image)
        return (bestStart(columns, window: size.width, slack: slackX), bestStart(rows, window: size.height, slack: slackY))
    }

    /// Where a window of `window` entries over `profile` holds the largest sum; of equal
    /// sums, the one nearest the centre.
    static func bestStart(_ profile: [Int], window: Int, slack: Int) -> Int {
        guard slack > 0 else { return 0 }
        let centre = slack / 2
        var sum = profile[0..<window].reduce(0, +)
        var best = (sum: sum, start: 0)
        for start in stride(from: 1, through: slack, by: 1) {
            sum += profile[start + window - 1] - profile[start - 1]
            if sum > best.sum || (sum == best.sum && abs(start - centre) < abs(best.start - centre)) { best = (sum, start) }
        }
        return best.start
    }

    /// Each pixel's interest (edge strength, plus a bonus for skin and for strong
    /// saturation, weighted by opacity), summed by column and by row. Only the luminance is
    /// kept per pixel, as bytes: a cover-sized image is a few megapixels.
    static func profiles(_ image: Image) -> (columns: [Int], rows: [Int]) {
        let w = image.width, h = image.height, bpp = image.pixelFormat.bytesPerPixel
        var columns = [Int](repeating: 0, count: w), rows = [Int](repeating: 0, count: h)
        image.pixels.withUnsafeBufferPointer { p in
            func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
                let i = y * image.bytesPerRow + x * bpp
                let r = Int(p[i])
                return bpp >= 3 ? (r, Int(p[i + 1]), Int(p[i + 2])) : (r, r, r)
            }
            var luma = [UInt8](repeating: 0, count: w * h)
            for y in 0..<h {
                for x in 0..<w {
                    let (r, g, b) = rgb(x, y)
                    luma[y * w + x] = UInt8((r * 77 + g * 150 + b * 29) >> 8)
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    let c = Int(luma[y * w + x])
                    let l = x > 0 ? Int(luma[y * w + x - 1]) : c, r = x < w - 1 ? Int(luma[y * w + x + 1]) : c
                    let u = y > 0 ? Int(luma[(y - 1) * w + x]) : c, d = y < h - 1 ? Int(luma[(y + 1) * w + x]) : c
                    let edge = min(255, abs(4 * c - l - r - u - d))
                    let (red, green, blue) = rgb(x, y)
                    let high = max(red, green, blue), low = min(red, green, blue)
                    // Skin (Kovač's rule in RGB) and strong saturation draw the eye.
                    let skin = red > 95 && green > 40 && blue > 20 && high - low > 15 && abs(red - green) > 15 && red > green && red > blue
                    let saturation = high > 0 ? (high - low) * 255 / high : 0
                    let alpha = bpp == 4 ? Int(p[y * image.bytesPerRow + x * bpp + 3]) : 255
                    let score = (edge + (skin ? 96 : 0) + (saturation > 100 ? saturation / 2 : 0)) * alpha / 255
                    columns[x] += score
                    rows[y] += score
                }
            }
        }
        return (columns, rows)
    }
}
