import OspreyDomain
import OspreyPixels

/// An image as premultiplied float samples, tightly packed, for the blurs: each pass reads
/// one plane and writes another, checking for cancellation every few rows.
struct FloatPlane {
    let width: Int
    let height: Int
    /// Samples a pixel: the source's, alpha last when it has one.
    let channels: Int
    let hasAlpha: Bool
    var samples: [Float]

    init(_ image: Image) throws(ImageProcessingError) {
        (width, height, channels, hasAlpha) = (image.width, image.height, image.pixelFormat.bytesPerPixel, image.pixelFormat.hasAlpha)
        var samples = [Float](repeating: 0, count: width * height * channels)
        let (w, bpp, alpha) = (width, channels, hasAlpha)
        try image.pixels.withUnsafeBufferPointer { (source: UnsafeBufferPointer<UInt8>) throws(ImageProcessingError) in
            for y in 0..<image.height {
                if y & 63 == 0 { try ImageProcessingError.checkCancellation() }
                for x in 0..<w {
                    let p = y * image.bytesPerRow + x * bpp, q = (y * w + x) * bpp
                    let a: Float = alpha ? Float(source[p + 3]) / 255 : 1
                    for c in 0..<bpp { samples[q + c] = alpha && c < 3 ? Float(source[p + c]) * a : Float(source[p + c]) }
                }
            }
        }
        self.samples = samples
    }

    /// The samples as an image of `original`'s pixel format, colour divided by alpha again.
    func image(like original: Image) throws(ImageProcessingError) -> Image {
        var pixels = [UInt8](repeating: 0, count: samples.count)
        for i in stride(from: 0, to: samples.count, by: channels) {
            if i & 0xFFFF < channels { try ImageProcessingError.checkCancellation() }
            let a = hasAlpha ? samples[i + 3] / 255 : 1
            for c in 0..<channels {
                let value = hasAlpha && c < 3 ? (a > 0 ? samples[i + c] / a : 0) : samples[i + c]
                pixels[i + c] = Resampler.clampByte(value)
            }
        }
        return try! Image(width: width, height: height, pixelFormat: original.pixelFormat, pixels: pixels)
    }

    /// One direction of a separable convolution with `kernel` (odd, centred), edges extended.
    mutating func convolve(with kernel: [Float], horizontal: Bool) throws(ImageProcessingError) {
        var out = [Float](repeating: 0, count: samples.count)
        let reach = kernel.count / 2
        let (width, height, bpp) = (self.width, self.height, channels)
        try samples.withUnsafeBufferPointer { (src: UnsafeBufferPointer<Float>) throws(ImageProcessingError) in
            try out.withUnsafeMutableBufferPointer { (dst: inout UnsafeMutableBufferPointer<Float>) throws(ImageProcessingError) in
                for y in 0..<height {
                    if y & 15 == 0 { try ImageProcessingError.checkCancellation() }
                    for x in 0..<width {
                        let q = (y * width + x) * bpp
                        for k in 0..<kernel.count {
                            let offset = k - reach
                            let sx = horizontal ? min(max(x + offset, 0), width - 1) : x
                            let sy = horizontal ? y : min(max(y + offset, 0), height - 1)
                            let p = (sy * width + sx) * bpp
                            let weight = kernel[k]
                            for c in 0..<bpp { dst[q + c] += src[p + c] * weight }
                        }
                    }
                }
            }
        }
        samples = out
    }

    /// One direction of a box blur `2 × reach + 1` wide, edges extended: running sums, so
    /// its cost does not grow with the reach. Down the columns, whole rows are summed at once.
    mutating func boxBlur(reach: Int, horizontal: Bool) throws(ImageProcessingError) {
        guard reach > 0 else { return }
        var out = [Float](repeating: 0, count: samples.count)
        let (width, height, bpp) = (self.width, self.height, channels)
        let rowLength = width * bpp
        let scale = 1 / Float(2 * reach + 1)
        try samples.withUnsafeBufferPointer { (src: UnsafeBufferPointer<Float>) throws(ImageProcessingError) in
            try out.withUnsafeMutableBufferPointer { (dst: inout UnsafeMutableBufferPointer<Float>) throws(ImageProcessingError) in
                if horizontal {
                    var sums = [Float](repeating: 0, count: bpp)
                    for y in 0..<height {
                        if y & 15 == 0 { try ImageProcessingError.checkCancellation() }
                        let row = y * rowLength
                        let at = { (x: Int) in row + min(max(x, 0), width - 1) * bpp }
                        for c in 0..<bpp { sums[c] = 0 }
                        for x in -reach...reach { for c in 0..<bpp { sums[c] += src[at(x) + c] } }
                        for x in 0..<width {
                            let q = row + x * bpp, enter = at(x + reach + 1), leave = at(x - reach)
                            for c in 0..<bpp {
                                dst[q + c] = sums[c] * scale
                                sums[c] += src[enter + c] - src[leave + c]
                            }
                        }
                    }
                } else {
                    var sums = [Float](repeating: 0, count: rowLength)
                    let row = { (y: Int) in min(max(y, 0), height - 1) * rowLength }
                    for y in -reach...reach { let r = row(y); for i in 0..<rowLength { sums[i] += src[r + i] } }
                    for y in 0..<height {
                        if y & 15 == 0 { try ImageProcessingError.checkCancellation() }
                        let q = y * rowLength, enter = row(y + reach + 1), leave = row(y - reach)
                        for i in 0..<rowLength {
                            dst[q + i] = sums[i] * scale
                            sums[i] += src[enter + i] - src[leave + i]
                        }
                    }
                }
            }
        }
        samples = out
    }
}
