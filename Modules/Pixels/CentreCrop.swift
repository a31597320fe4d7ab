import OspreyDomain

/// Crops the centre of an image, for `fill` content mode.
public enum CentreCrop {
    /// The `size` centre of `image`; `image` itself when it already fits.
    public static func crop(_ image: Image, to size: PixelSize) -> Image {
        let size = PixelSize(width: min(size.width, image.width), height: min(size.height, image.height))
        guard size != image.size, !size.isEmpty else { return image }
        let x0 = (image.width - size.width) / 2, y0 = (image.height - size.height) / 2
        let bpp = image.pixelFormat.bytesPerPixel
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.area * bpp)
        for y in y0..<y0 + size.height {
            let start = y * image.bytesPerRow + x0 * bpp
            pixels += image.pixels[start..<start + size.width * bpp]
        }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }
}
