import OspreyDomain

/// The EXIF orientation of stored pixels: how to turn them to show the image upright.
///
/// Raw values 1...8 as EXIF defines them; anything else counts as ``up`` (1).
public enum Orientation: Int, Hashable, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: turned 180°.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// 6: stored turned 90° anticlockwise; shown turned 90° clockwise.
    case right = 6
    /// 7: mirrored along the anti-diagonal (transversed).
    case rightMirrored = 7
    /// 8: stored turned 90° clockwise; shown turned 90° anticlockwise.
    case left = 8

    /// The orientation for an EXIF value; invalid values (0, 9 …) count as ``up``.
    public init(exifValue: Int) { self = Orientation(rawValue: exifValue) ?? .up }

    /// The orientation a decoder applies for an EXIF value (`nil` for none) under `options`:
    /// ``up`` where they keep the pixels as stored.
    public init(exifValue: Int?, applying options: DecodingOptions) {
        self = options.appliesOrientation ? Orientation(exifValue: exifValue ?? 1) : .up
    }

    /// The orientation HEIF's transform boxes describe: `irot` turns the image `angle` × 90°
    /// anticlockwise, then `imir` mirrors it (mode 0 exchanges top and bottom, 1 left and right).
    public init(irotAngle angle: Int, imirMode mirror: Int?) {
        let turned: [Orientation] = [.up, .left, .down, .right]
        let base = turned[((angle % 4) + 4) % 4]
        switch (mirror, base) {
        case (nil, _): self = base
        case (1, .up): self = .upMirrored
        case (1, .down): self = .downMirrored
        case (1, .left): self = .rightMirrored
        case (1, .right): self = .leftMirrored
        case (_, .up): self = .downMirrored
        case (_, .down): self = .upMirrored
        case (_, .left): self = .leftMirrored
        default: self = .rightMirrored
        }
    }

    /// The EXIF value (1...8).
    public var exifValue: Int { rawValue }

    /// `true` when width and height swap on display (values 5 to 8).
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The displayed size of stored pixels of `size`.
    public func displayedSize(of size: PixelSize) -> PixelSize {
        swapsDimensions ? PixelSize(width: size.height, height: size.width) : size
    }

    /// The size to decode stored pixels of `stored` size at, so that once turned upright they
    /// meet `options` — whose target size applies to the image as displayed.
    public func storedOutputSize(for stored: PixelSize, options: DecodingOptions) -> PixelSize {
        displayedSize(of: options.outputSize(for: displayedSize(of: stored)))
    }

    /// `image`'s pixels turned upright.
    public func applied(to image: Image) -> Image {
        guard self != .up else { return image }
        let (w, h) = (image.width, image.height)
        let out = displayedSize(of: image.size)
        let bpp = image.pixelFormat.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: out.byteCount(bytesPerPixel: bpp))
        image.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        // The stored pixel shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = sy * image.bytesPerRow + sx * bpp
                        let d = (y * out.width + x) * bpp
                        for c in 0..<bpp { dst[d + c] = src[s + c] }
                    }
                }
            }
        }
        var turned = try! Image(width: out.width, height: out.height, pixelFormat: image.pixelFormat, pixels: pixels)
        turned.carryColorAndMetadata(from: image)
        return turned
    }
}
