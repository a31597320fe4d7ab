import OspreyDomain

/// Finds the most interesting window of an image, as libvips' `attention` smart crop does:
/// each pixel scores for edges (the luminance's Laplacian), for skin tones and for strong
/// saturation; the window whose columns and rows hold the most score wins.
public enum Attention {
    /// The top left corner of the `size` window with the most interest in `image`.
    public static func origin(in image: Image, size: PixelSize) -> (x: Int, y: Int) {
        let slackX = max(0, image.width - size.width), slackY = max(0, image.height - size.height)
        guard slackX > 0 || slackY > 0 else { return (0, 0) }
        let scores = score(image)
        var columns = [Int](repeating: 0, count: image.width), rows = [Int](repeating: 0, count: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let value = scores[y * image.width + x]
                columns[x] += value
                rows[y] += value
            }
        }
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

    /// Each pixel's interest: edge strength, plus a bonus for skin and for strong
    /// saturation, weighted by opacity.
    static func score(_ image: Image) -> [Int] {
        let w = image.width, h = image.height, bpp = image.pixelFormat.bytesPerPixel
        var luma = [Int](repeating: 0, count: w * h)
        var bonus = [Int](repeating: 0, count: w * h)
        var alpha = [Int](repeating: 255, count: w * h)
        image.pixels.withUnsafeBufferPointer { p in
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * image.bytesPerRow + x * bpp
                    let r = Int(p[i]), g = bpp >= 3 ? Int(p[i + 1]) : r, b = bpp >= 3 ? Int(p[i + 2]) : r
                    luma[y * w + x] = (r * 77 + g * 150 + b * 29) >> 8
                    if bpp == 4 { alpha[y * w + x] = Int(p[i + 3]) }
                    let high = max(r, g, b), low = min(r, g, b)
                    // Skin (Kovač's rule in RGB) and strong saturation draw the eye.
                    let skin = r > 95 && g > 40 && b > 20 && high - low > 15 && abs(r - g) > 15 && r > g && r > b
                    let saturation = high > 0 ? (high - low) * 255 / high : 0
                    bonus[y * w + x] = (skin ? 96 : 0) + (saturation > 100 ? saturation / 2 : 0)
                }
            }
        }
        var scores = [Int](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let c = luma[y * w + x]
                let l = x > 0 ? luma[y * w + x - 1] : c, r = x < w - 1 ? luma[y * w + x + 1] : c
                let u = y > 0 ? luma[(y - 1) * w + x] : c, d = y < h - 1 ? luma[(y + 1) * w + x] : c
                let edge = min(255, abs(4 * c - l - r - u - d))
                scores[y * w + x] = (edge + bonus[y * w + x]) * alpha[y * w + x] / 255
            }
        }
        return scores
    }
}
