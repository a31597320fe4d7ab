import OspreyDomain

/// Cuts a window of an image out at a gravity: the centre, a point, or the most interesting
/// part (``Attention``).
public enum GravityCrop {
    /// The `size` centre of `image`; `image` itself when it already fits.
    public static func crop(_ image: Image, to size: PixelSize) -> Image {
        crop(image, to: size, gravity: .centre)
    }

    /// The `size` window of `image` that `gravity` picks; `image` itself when it already fits.
    public static func crop(_ image: Image, to size: PixelSize, gravity: CropGravity) -> Image {
        let size = PixelSize(width: min(size.width, image.width), height: min(size.height, image.height))
        guard size != image.size, !size.isEmpty else { return image }
        return crop(image, origin: origin(in: image, size: size, gravity: gravity), size: size)
    }

    /// The top left corner of the `size` window `gravity` picks in `image`.
    public static func origin(in image: Image, size: PixelSize, gravity: CropGravity) -> (x: Int, y: Int) {
        let slackX = max(0, image.width - size.width), slackY = max(0, image.height - size.height)
        switch gravity {
        case .centre:
            return (slackX / 2, slackY / 2)
        case let .point(x, y):
            func place(_ fraction: Double, _ side: Int, _ window: Int, _ slack: Int) -> Int {
                min(slack, max(0, Int((fraction * Double(side) - Double(window) / 2).rounded())))
            }
            return (place(x, image.width, size.width, slackX), place(y, image.height, size.height, slackY))
        case .attention:
            return Attention.origin(in: image.narrowedToEightBits, size: size)
        }
    }

    /// The `size` window of `image` at `origin`, which must lie inside it.
    public static func crop(_ image: Image, origin: (x: Int, y: Int), size: PixelSize) -> Image {
        guard size != image.size else { return image }
        let bpp = image.pixelFormat.bytesPerPixel
        var pixels = [UInt8]()
        pixels.reserveCapacity(size.byteCount(bytesPerPixel: bpp))
        for y in origin.y..<origin.y + size.height {
            let start = y * image.bytesPerRow + origin.x * bpp
            pixels += image.pixels[start..<start + size.width * bpp]
        }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }
}
