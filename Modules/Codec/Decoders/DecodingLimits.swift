import OspreyDomain

/// Limits checked from an image's header before any pixel memory is allocated, so that a
/// decompression bomb gets a typed error instead of an allocation.
public struct DecodingLimits: Hashable, Sendable {
    /// The most pixels (width × height, as stored) an image may have. Default 100 megapixels.
    public var maxPixels: Int
    /// The most bytes of encoded input accepted. Default 100 MB.
    public var maxInputBytes: Int64
    /// The most frames an animation may have when all are asked for. Default 1,000.
    public var maxFrames: Int
    /// The most pixels an animation may draw, its canvas times its frames, when all are
    /// asked for. Default 250 megapixels (a gigabyte of canvas updates at four bytes a pixel).
    public var maxAnimationPixels: Int

    /// Creates limits.
    public init(maxPixels: Int = 100_000_000, maxInputBytes: Int64 = 100_000_000,
                maxFrames: Int = 1_000, maxAnimationPixels: Int = 250_000_000) {
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
        self.maxFrames = maxFrames
        self.maxAnimationPixels = maxAnimationPixels
    }

    /// The defaults: 100 megapixels, 100 MB.
    public static let `default` = DecodingLimits()

    func check(width: Int, height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0 else { throw .corrupt(.unknownFormat, detail: "image has no pixels (\(width)x\(height))") }
        guard PixelSize(width: width, height: height).area <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }

    /// Checks an animation of `frames` frames on a canvas of `canvas`, as its header declares.
    func checkAnimation(canvas: PixelSize, frames: Int) throws(ImageDecodingError) {
        guard frames <= maxFrames else { throw .tooManyFrames(count: frames, limit: maxFrames) }
        let pixels = canvas.area(frames: frames)
        guard pixels <= maxAnimationPixels else { throw .animationTooLarge(pixels: pixels, limit: maxAnimationPixels) }
    }
}

extension ImageFormat {
    /// A placeholder for messages about data whose format is not known yet.
    static let unknownFormat = ImageFormat(rawValue: "image")
}
