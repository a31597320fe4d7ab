import OspreyDomain

/// Conversions between pixel formats, for encoders and processors.
public enum PixelConversion {
    /// `image` with tightly packed rows in `format`: gray expands to RGB(A); alpha is dropped
    /// by compositing onto `background` (a gray level, white by default); premultiplied
    /// colour is divided back out.
    ///
    /// When the calling task is cancelled, it stops within a few rows and returns `image`
    /// itself: its caller, being cancelled too, throws the result away.
    /// A 16-bit image is narrowed to 8 bits for an 8-bit `format`, and converted in 16 bits for
    /// a 16-bit one (its colour and metadata kept); an 8-bit image reaches a 16-bit `format`
    /// through 8 bits, widened.
    public static func converted(_ image: Image, to format: PixelFormat, background: UInt8 = 255) -> Image {
        if image.pixelFormat == format && image.bytesPerRow == image.width * format.bytesPerPixel { return image }
        if format.isHighBitDepth {
            guard image.pixelFormat.isHighBitDepth else { return widened(converted(image, to: format.eightBit, background: background)) }
            return attaching(image, to: sixteen(image, to: format, background: UInt32(background) * 257))
        }
        let src = unpremultiplied(image.narrowedToEightBits)
        let inBpp = src.pixelFormat.bytesPerPixel, outBpp = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * outBpp)
        src.pixels.withUnsafeBufferPointer { s in
            pixels.withUnsafeMutableBufferPointer { d in
                for y in 0..<image.height {
                    if y & 63 == 0, Task.isCancelled { return }
                    for x in 0..<image.width {
                        let p = y * src.bytesPerRow + x * inBpp
                        var r = Int(s[p]), g = r, b = r, a = 255
                        if inBpp >= 3 { g = Int(s[p + 1]); b = Int(s[p + 2]) }
                        if inBpp == 4 { a = Int(s[p + 3]) }
                        if !format.hasAlpha && a < 255 {
                            let bg = Int(background)
                            r = (r * a + bg * (255 - a) + 127) / 255
                            g = (g * a + bg * (255 - a) + 127) / 255
                            b = (b * a + bg * (255 - a) + 127) / 255
                        }
                        let q = (y * image.width + x) * outBpp
                        switch format {
                        case .gray8: d[q] = UInt8((r * 299 + g * 587 + b * 114 + 500) / 1000)
                        case .rgb8: (d[q], d[q + 1], d[q + 2]) = (UInt8(r), UInt8(g), UInt8(b))
                        case .rgba8, .rgba8Premultiplied, .rgba16:
                            (d[q], d[q + 1], d[q + 2], d[q + 3]) = (UInt8(r), UInt8(g), UInt8(b), UInt8(a))
                        case .gray16, .rgb16: break  // reached through 8 bits above
                        }
                    }
                }
            }
        }
        guard !Task.isCancelled else { return image }
        let result = try! Image(width: image.width, height: image.height, pixelFormat: format == .rgba8Premultiplied ? .rgba8 : format, pixels: pixels)
        return format == .rgba8Premultiplied ? premultiplied(result) : result
    }

    /// 16-bit `image` in 16-bit `format`, with the 8-bit path's rules at 16 bits.
    private static func sixteen(_ image: Image, to format: PixelFormat, background: UInt32) -> Image {
        let inChannels = image.pixelFormat.channels, outChannels = format.channels
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * outChannels * 2)
        image.pixels.withUnsafeBytes { source in
            pixels.withUnsafeMutableBytes { target in
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let p = y * image.bytesPerRow + x * inChannels * 2
                        func sample(_ c: Int) -> UInt32 { UInt32(source.loadUnaligned(fromByteOffset: p + c * 2, as: UInt16.self)) }
                        var (r, g, b, a) = (sample(0), sample(0), sample(0), UInt32(65_535))
                        if inChannels >= 3 { (g, b) = (sample(1), sample(2)) }
                        if inChannels == 4 { a = sample(3) }
                        if !format.hasAlpha && a < 65_535 {
                            r = (r * a + background * (65_535 - a) + 32_767) / 65_535
                            g = (g * a + background * (65_535 - a) + 32_767) / 65_535
                            b = (b * a + background * (65_535 - a) + 32_767) / 65_535
                        }
                        let q = (y * image.width + x) * outChannels * 2
                        func store(_ value: UInt32, _ c: Int) { target.storeBytes(of: UInt16(value), toByteOffset: q + c * 2, as: UInt16.self) }
                        if outChannels == 1 {
                            store((r * 299 + g * 587 + b * 114 + 500) / 1000, 0)
                        } else {
                            store(r, 0)
                            store(g, 1)
                            store(b, 2)
                            if outChannels == 4 { store(a, 3) }
                        }
                    }
                }
            }
        }
        return try! Image(width: image.width, height: image.height, pixelFormat: format, pixels: pixels)
    }

    /// An 8-bit image at 16 bits a sample (each value × 257, so 255 is 65535); others unchanged.
    public static func widened(_ image: Image) -> Image {
        let format: PixelFormat = switch image.pixelFormat {
        case .gray8: .gray16
        case .rgb8: .rgb16
        case .rgba8, .rgba8Premultiplied: .rgba16
        default: image.pixelFormat
        }
        guard format != image.pixelFormat else { return image }
        let source = unpremultiplied(image)
        let samples = image.width * format.channels
        var pixels = [UInt8](repeating: 0, count: samples * 2 * image.height)
        pixels.withUnsafeMutableBytes { raw in
            for y in 0..<image.height {
                for i in 0..<samples {
                    let value = UInt16(source.pixels[y * source.bytesPerRow + i]) * 257
                    raw.storeBytes(of: value, toByteOffset: (y * samples + i) * 2, as: UInt16.self)
                }
            }
        }
        return attaching(image, to: try! Image(width: image.width, height: image.height, pixelFormat: format, pixels: pixels))
    }

    /// `converted` with `image`'s colour and metadata (a still's: 16-bit images animate not).
    private static func attaching(_ image: Image, to converted: Image) -> Image {
        var converted = converted
        converted.carryColorAndMetadata(from: image)
        return converted
    }

    /// Straight (non-premultiplied) RGBA from premultiplied; other formats unchanged.
    public static func unpremultiplied(_ image: Image) -> Image {
        guard image.pixelFormat == .rgba8Premultiplied else { return image }
        var pixels = image.pixels
        for i in Swift.stride(from: 0, to: pixels.count - 3, by: 4) {
            let a = Int(pixels[i + 3])
            for c in 0..<3 { pixels[i + c] = a == 0 ? 0 : UInt8(min(255, (Int(pixels[i + c]) * 255 + a / 2) / a)) }
        }
        return try! Image(width: image.width, height: image.height, pixelFormat: .rgba8, bytesPerRow: image.bytesPerRow, pixels: pixels)
    }

    /// Premultiplied RGBA from straight RGBA; other formats unchanged.
    public static func premultiplied(_ image: Image) -> Image {
        guard image.pixelFormat == .rgba8 else { return image }
        var pixels = image.pixels
        for i in Swift.stride(from: 0, to: pixels.count - 3, by: 4) {
            let a = Int(pixels[i + 3])
            for c in 0..<3 { pixels[i + c] = UInt8((Int(pixels[i + c]) * a + 127) / 255) }
        }
        return try! Image(width: image.width, height: image.height, pixelFormat: .rgba8Premultiplied, bytesPerRow: image.bytesPerRow, pixels: pixels)
    }
}
