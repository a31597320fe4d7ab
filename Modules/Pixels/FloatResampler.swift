import Foundation
import OspreyDomain

/// The Lanczos-3 resampler in floating point, kept as the reference the fixed-point kernels are
/// tested against: four floats per pixel, the horizontal pass first, weights from `sin`.
/// Straight alpha is filtered premultiplied; `.rgba8Premultiplied` input is filtered as it is.
/// It also resamples 16-bit images, which the fixed-point kernels do not take.
/// Public for the benchmarks only, behind `@_spi(Reference)`.
@_spi(Reference) public enum FloatResampler {
    public static func resize(_ image: Image, to size: PixelSize) -> Image {
        guard size != image.size, !size.isEmpty else { return image }
        let format = image.pixelFormat
        let channels = format.channels, bytesPerPixel = format.bytesPerPixel
        let alpha = format == .rgba8 || format == .rgba16
        let sixteen = format.isHighBitDepth
        let horizontal = Contributions(source: image.width, destination: size.width)
        let vertical = Contributions(source: image.height, destination: size.height)
        // Every pixel is four floats (a gray or RGB pixel leaves some unused), so the loops
        // are the same for every format and the compiler can vectorise them. Plain floats, not
        // SIMD4: the debug build the tests run would call generic SIMD code for every tap.
        // Rows filtered across are kept in a ring just deep enough for the filter down: no
        // buffer the size of the image, which would be mapped and faulted in for every call.
        let depth = vertical.counts.max() ?? 1
        let rowFloats = size.width * 4
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: depth * rowFloats)
        defer { ring.deallocate() }
        let widened = UnsafeMutablePointer<Float>.allocate(capacity: image.width * 4)
        defer { widened.deallocate() }
        let acc = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        defer { acc.deallocate() }

        var filtered = 0  // source rows filtered across so far
        let pixels = image.pixels.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: size.byteCount(bytesPerPixel: bytesPerPixel)) { dst, initialized in
                horizontal.weights.withUnsafeBufferPointer { across in
                    vertical.weights.withUnsafeBufferPointer { down in
                        for y in 0..<size.height {
                            if y & 15 == 0, Task.isCancelled { break }
                            let (start, count, offset) = vertical.span(y)
                            // Pass 1, on demand: each source row to the destination width.
                            while filtered < start + count {
                                let row = src.baseAddress! + filtered * image.bytesPerRow
                                if sixteen {
                                    widen16(UnsafeRawPointer(row), count: image.width, channels: channels, alpha: alpha, into: widened)
                                } else {
                                    widen(row, count: image.width, channels: channels, alpha: alpha, into: widened)
                                }
                                filterAcross(widened, horizontal, weights: across.baseAddress!, count: size.width,
                                             into: ring + (filtered % depth) * rowFloats)
                                filtered += 1
                            }
                            // Pass 2: the rows under the filter down, then back to bytes.
                            for i in 0..<count {
                                let w = down[offset + i]
                                let row = ring + ((start + i) % depth) * rowFloats
                                if i == 0 {
                                    for j in 0..<rowFloats { acc[j] = row[j] * w }
                                } else {
                                    for j in 0..<rowFloats { acc[j] += row[j] * w }
                                }
                            }
                            let out = dst.baseAddress! + y * size.width * bytesPerPixel
                            if sixteen {
                                narrow16(acc, count: size.width, channels: channels, alpha: alpha, into: UnsafeMutableRawPointer(out))
                            } else {
                                narrow(acc, count: size.width, channels: channels, alpha: alpha, into: out)
                            }
                        }
                    }
                }
                initialized = size.byteCount(bytesPerPixel: bytesPerPixel)
            }
        }
        guard !Task.isCancelled else { return image }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }

    /// A row of 16-bit samples as four floats per pixel, colour premultiplied by alpha (in 0…1,
    /// so the sums stay in range).
    @inline(__always)
    private static func widen16(_ samples: UnsafeRawPointer, count: Int, channels: Int, alpha: Bool,
                                into out: UnsafeMutablePointer<Float>) {
        let sample = { (index: Int) in Float(samples.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)) }
        for x in 0..<count {
            let (q, o) = (x * channels, out + x * 4)
            switch channels {
            case 4:
                let a = alpha ? sample(q + 3) / 65_535 : 1
                (o[0], o[1], o[2], o[3]) = (sample(q) * a, sample(q + 1) * a, sample(q + 2) * a, sample(q + 3))
            case 3: (o[0], o[1], o[2], o[3]) = (sample(q), sample(q + 1), sample(q + 2), 0)
            default: (o[0], o[1], o[2], o[3]) = (sample(q), 0, 0, 0)
            }
        }
    }

    /// A row of filtered pixels back to 16-bit samples, premultiplied colour divided back out.
    @inline(__always)
    private static func narrow16(_ pixels: UnsafePointer<Float>, count: Int, channels: Int, alpha: Bool,
                                 into out: UnsafeMutableRawPointer) {
        let clamp = { (value: Float) -> UInt16 in value <= 0 ? 0 : value >= 65_535 ? 65_535 : UInt16(value + 0.5) }
        for x in 0..<count {
            let p = pixels + x * 4
            let a = p[3] / 65_535
            for c in 0..<channels {
                let value = c < 3 && channels == 4 && alpha ? (a > 0.5 / 65_535 ? p[c] / a : 0) : p[c]
                out.storeBytes(of: clamp(value), toByteOffset: (x * channels + c) * 2, as: UInt16.self)
            }
        }
    }

    /// One widened row filtered to `count` pixels across.
    @inline(__always)
    private static func filterAcross(_ row: UnsafePointer<Float>, _ contributions: Contributions, weights: UnsafePointer<Float>,
                                     count: Int, into out: UnsafeMutablePointer<Float>) {
        for x in 0..<count {
            let (first, taps, at) = contributions.span(x)
            let w = weights + at
            let p = row + first * 4
            var (r, g, b, a) = (Float(0), Float(0), Float(0), Float(0))
            for i in 0..<taps {
                let q = p + i * 4
                let wi = w[i]
                r += q[0] * wi
                g += q[1] * wi
                b += q[2] * wi
                a += q[3] * wi
            }
            let o = out + x * 4
            (o[0], o[1], o[2], o[3]) = (r, g, b, a)
        }
    }

    /// A row of bytes as four floats per pixel, colour premultiplied by alpha.
    @inline(__always)
    private static func widen(_ bytes: UnsafePointer<UInt8>, count: Int, channels: Int, alpha: Bool,
                              into out: UnsafeMutablePointer<Float>) {
        switch channels {
        case 4 where alpha:
            for x in 0..<count {
                let (q, o) = (bytes + x * 4, out + x * 4)
                let a = Float(q[3])
                (o[0], o[1], o[2], o[3]) = (Float(q[0]) * a, Float(q[1]) * a, Float(q[2]) * a, a)
            }
        case 4:
            for x in 0..<count {
                let (q, o) = (bytes + x * 4, out + x * 4)
                (o[0], o[1], o[2], o[3]) = (Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3]))
            }
        case 3:
            for x in 0..<count {
                let (q, o) = (bytes + x * 3, out + x * 4)
                (o[0], o[1], o[2], o[3]) = (Float(q[0]), Float(q[1]), Float(q[2]), 0)
            }
        default:
            for x in 0..<count {
                let o = out + x * 4
                (o[0], o[1], o[2], o[3]) = (Float(bytes[x]), 0, 0, 0)
            }
        }
    }

    /// A row of filtered pixels back to bytes; premultiplied colour (by alpha in 0...255) is
    /// divided back out.
    @inline(__always)
    private static func narrow(_ pixels: UnsafePointer<Float>, count: Int, channels: Int, alpha: Bool,
                               into out: UnsafeMutablePointer<UInt8>) {
        switch channels {
        case 4 where alpha:
            for x in 0..<count {
                let (p, o) = (pixels + x * 4, out + x * 4)
                let a = p[3]
                if a > 0.5 {
                    (o[0], o[1], o[2]) = (Resampler.clampByte(p[0] / a), Resampler.clampByte(p[1] / a), Resampler.clampByte(p[2] / a))
                } else {
                    (o[0], o[1], o[2]) = (0, 0, 0)
                }
                o[3] = Resampler.clampByte(a)
            }
        case 4:
            for x in 0..<count {
                let (p, o) = (pixels + x * 4, out + x * 4)
                (o[0], o[1], o[2], o[3]) = (Resampler.clampByte(p[0]), Resampler.clampByte(p[1]), Resampler.clampByte(p[2]), Resampler.clampByte(p[3]))
            }
        case 3:
            for x in 0..<count {
                let (p, o) = (pixels + x * 4, out + x * 3)
                (o[0], o[1], o[2]) = (Resampler.clampByte(p[0]), Resampler.clampByte(p[1]), Resampler.clampByte(p[2]))
            }
        default:
            for x in 0..<count { out[x] = Resampler.clampByte(pixels[x * 4]) }
        }
    }
}
