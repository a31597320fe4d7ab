import Foundation
import OspreyDomain

/// High-quality resampling with a separable Lanczos-3 filter.
///
/// The one resampler of Osprey: decoders use it after a scaled decode, and the resize
/// processor uses it. Alpha is filtered premultiplied, so transparent pixels do not bleed
/// their colour into their neighbours; the result has the input's pixel format.
public enum Resampler {
    /// `image` resampled to `size`. Returns `image` itself when the size is unchanged.
    ///
    /// When the calling task is cancelled, it stops within a few rows and returns `image`
    /// itself: its caller, being cancelled too, throws the result away.
    public static func resize(_ image: Image, to size: PixelSize) -> Image {
        guard size != image.size, !size.isEmpty else { return image }
        let bpp = image.pixelFormat.bytesPerPixel
        let alpha = image.pixelFormat.hasAlpha
        let horizontal = Contributions(source: image.width, destination: size.width)
        let vertical = Contributions(source: image.height, destination: size.height)
        // Pass 1: each source row to the destination width, as premultiplied floats. The row
        // is widened to floats once, not once for each of the outputs each pixel feeds.
        var middle = [Float](repeating: 0, count: image.height * size.width * bpp)
        let rowFloats = UnsafeMutableBufferPointer<Float>.allocate(capacity: image.width * bpp)
        defer { rowFloats.deallocate() }
        image.pixels.withUnsafeBufferPointer { src in
            middle.withUnsafeMutableBufferPointer { mid in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<image.height {
                        if y & 31 == 0, Task.isCancelled { return }
                        let row = src.baseAddress! + y * image.bytesPerRow
                        for i in 0..<image.width * bpp { rowFloats[i] = Float(row[i]) }
                        let out = mid.baseAddress! + y * size.width * bpp
                        for x in 0..<size.width {
                            let (start, count, offset) = horizontal.span(x)
                            let w = weights.baseAddress! + offset
                            let p = rowFloats.baseAddress! + start * bpp
                            let o = out + x * bpp
                            if alpha {
                                var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                                for i in 0..<count {
                                    let q = p + i * 4
                                    let a = q[3] * w[i]
                                    acc.0 += q[0] * a
                                    acc.1 += q[1] * a
                                    acc.2 += q[2] * a
                                    acc.3 += a
                                }
                                (o[0], o[1], o[2], o[3]) = acc
                            } else if bpp == 3 {
                                var acc: (Float, Float, Float) = (0, 0, 0)
                                for i in 0..<count {
                                    let q = p + i * 3
                                    acc.0 += q[0] * w[i]
                                    acc.1 += q[1] * w[i]
                                    acc.2 += q[2] * w[i]
                                }
                                (o[0], o[1], o[2]) = acc
                            } else {
                                var acc: Float = 0
                                for i in 0..<count { acc += p[i] * w[i] }
                                o[0] = acc
                            }
                        }
                    }
                }
            }
        }
        // Pass 2: columns to the destination height, then back to bytes.
        var pixels = [UInt8](repeating: 0, count: size.area * bpp)
        let outFloats = size.width * bpp
        let acc = UnsafeMutableBufferPointer<Float>.allocate(capacity: outFloats)
        defer { acc.deallocate() }
        middle.withUnsafeBufferPointer { mid in
            pixels.withUnsafeMutableBufferPointer { dst in
                vertical.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<size.height {
                        if y & 15 == 0, Task.isCancelled { return }
                        let (start, count, offset) = vertical.span(y)
                        acc.update(repeating: 0)
                        for i in 0..<count {
                            let w = weights[offset + i]
                            let row = mid.baseAddress! + (start + i) * outFloats
                            for j in 0..<outFloats { acc[j] += row[j] * w }
                        }
                        let out = dst.baseAddress! + y * outFloats
                        if alpha {
                            // Colour was premultiplied by alpha (0...255); divide it back out.
                            for x in 0..<size.width {
                                let a = acc[x * 4 + 3]
                                for c in 0..<3 { out[x * 4 + c] = a > 0.5 ? clampByte(acc[x * 4 + c] / a) : 0 }
                                out[x * 4 + 3] = clampByte(a)
                            }
                        } else {
                            for j in 0..<outFloats { out[j] = clampByte(acc[j]) }
                        }
                    }
                }
            }
        }
        guard !Task.isCancelled else { return image }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }

    /// A float channel value rounded and clamped to a byte.
    @inline(__always)
    public static func clampByte(_ value: Float) -> UInt8 {
        value <= 0 ? 0 : value >= 255 ? 255 : UInt8(value + 0.5)
    }
}
