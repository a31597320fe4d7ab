import OspreyDomain

/// Small images made in code for tests.
public enum TestImages {
    /// An image of `size` whose every byte is `value`.
    public static func solid(_ size: PixelSize, value: UInt8 = 0x80, format: PixelFormat = .rgba8) -> Image {
        try! Image(width: size.width, height: size.height, pixelFormat: format,
                   pixels: [UInt8](repeating: value, count: size.area * format.bytesPerPixel))
    }

    /// An image of `size` with a different value in every pixel (a diagonal gradient).
    public static func gradient(_ size: PixelSize, format: PixelFormat = .rgba8) -> Image {
        let bpp = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: size.area * bpp)
        for y in 0..<size.height {
            for x in 0..<size.width {
                for c in 0..<bpp { pixels[(y * size.width + x) * bpp + c] = UInt8(truncatingIfNeeded: x * 7 + y * 13 + c * 61) }
            }
        }
        return try! Image(width: size.width, height: size.height, pixelFormat: format, pixels: pixels)
    }
}
