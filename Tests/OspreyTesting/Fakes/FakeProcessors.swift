import OspreyDomain

/// Inverts every colour channel; keeps size and alpha. A fake for pipeline tests.
public struct InvertProcessor: ImageProcessing {
    /// Creates the processor.
    public init() {}

    public var identifier: String { "fake.invert" }

    public func process(_ image: Image) throws(ImageProcessingError) -> Image {
        let bpp = image.pixelFormat.bytesPerPixel
        let colourChannels = image.pixelFormat.hasAlpha ? bpp - 1 : bpp
        var pixels = image.pixels
        for index in pixels.indices where (index % image.bytesPerRow) % bpp < colourChannels {
            pixels[index] = 255 &- pixels[index]
        }
        return try! Image(width: image.width, height: image.height, pixelFormat: image.pixelFormat,
                          bytesPerRow: image.bytesPerRow, pixels: pixels)
    }
}

/// Crops the top-left corner of a given size. A fake for pipeline and contract tests.
public struct CornerCropProcessor: ImageProcessing {
    /// The size kept.
    public let size: PixelSize

    /// Creates a processor keeping the `size` top-left corner.
    public init(size: PixelSize) { self.size = size }

    public var identifier: String { "fake.corner-crop(\(size))" }

    public func process(_ image: Image) throws(ImageProcessingError) -> Image {
        guard !size.isEmpty, size.width <= image.width, size.height <= image.height else {
            throw .invalidParameters(processor: identifier, reason: "crop \(size) does not fit in \(image.size)")
        }
        let bpp = image.pixelFormat.bytesPerPixel
        var pixels: [UInt8] = []
        pixels.reserveCapacity(size.area * bpp)
        for y in 0..<size.height {
            let start = y * image.bytesPerRow
            pixels += image.pixels[start..<start + size.width * bpp]
        }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }
}
