/// A decoded image: a buffer of pixels with its geometry.
///
/// Storage is a copy-on-write byte array, so an `Image` is a cheap value to pass between
/// tasks. Rows may be padded: row `y` starts at `y * bytesPerRow`.
public struct Image: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The layout of each pixel.
    public let pixelFormat: PixelFormat
    /// Bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The pixels, `bytesPerRow × height` bytes.
    public let pixels: [UInt8]
    /// The embedded colour profile, kept when the pixels were left in its colour space
    /// (``ColorHandling/preserve``); `nil` when the pixels are sRGB.
    public var colorProfile: ColorProfile? {
        get { attachments?.colorProfile }
        set { attach(colorProfile: newValue) }
    }
    /// The code points of an HDR signal (PQ or HLG) kept at high bit depth, which no ICC
    /// profile describes; `nil` otherwise.
    public var colorCodePoints: ColorCodePoints? {
        get { attachments?.colorCodePoints }
        set { attach(colorCodePoints: newValue) }
    }
    /// Every frame of an animated image, when all were asked for; the image's own pixels
    /// are the first frame's. `nil` for a still.
    public var animation: ImageAnimation? {
        get { attachments?.animation }
        set { attach(animation: newValue) }
    }
    /// The EXIF, XMP and IPTC blocks of the file it was decoded from, written again only
    /// where ``EncodingOptions/metadata`` asks; `nil` when there were none.
    public var metadata: ImageMetadata? {
        get { attachments?.metadata }
        set { attach(metadata: newValue) }
    }
    /// The profile or code points, the frames and the metadata behind one reference: most
    /// images carry none, and an image is copied in and out of caches at every hit, so it stays
    /// five words and one.
    private var attachments: ImageAttachments?

    /// New attachments with the arguments given: an argument left out keeps the current value,
    /// `.some(nil)` clears it.
    private mutating func attach(colorProfile: ColorProfile?? = nil, colorCodePoints: ColorCodePoints?? = nil,
                                 animation: ImageAnimation?? = nil, metadata: ImageMetadata?? = nil) {
        attachments = ImageAttachments.make(colorProfile: colorProfile ?? self.colorProfile, colorCodePoints: colorCodePoints ?? self.colorCodePoints,
                                            animation: animation ?? self.animation, metadata: metadata ?? self.metadata)
    }

    /// Takes `source`'s colour (profile or code points) and metadata, not its frames: for an
    /// image made from `source`'s pixels.
    package mutating func carryColorAndMetadata(from source: Image) {
        attach(colorProfile: .some(source.colorProfile), colorCodePoints: .some(source.colorCodePoints), metadata: .some(source.metadata))
    }

    /// Creates an image, checking that the buffer matches the geometry.
    ///
    /// - Throws: ``ImageGeometryError`` when a side is not positive, a row is shorter than
    ///   its pixels, or the buffer does not hold `bytesPerRow × height` bytes.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) throws(ImageGeometryError) {
        let rowBytes = bytesPerRow ?? width * pixelFormat.bytesPerPixel
        guard width > 0, height > 0 else { throw .emptySize(width: width, height: height) }
        guard rowBytes >= width * pixelFormat.bytesPerPixel else {
            throw .rowTooShort(bytesPerRow: rowBytes, needed: width * pixelFormat.bytesPerPixel)
        }
        guard pixels.count == rowBytes * height else {
            throw .bufferSizeMismatch(expected: rowBytes * height, actual: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.bytesPerRow = rowBytes
        self.pixels = pixels
    }

    /// The image's size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// What the image costs in memory, in bytes: its pixel buffer, plus every frame after
    /// the first when it is animated.
    ///
    /// This is the figure memory caches count against their cost limit.
    public var cost: Int {
        bytesPerRow * height + (animation?.frames.dropFirst().reduce(0) { $0 + $1.image.cost } ?? 0) + (metadata?.byteCount ?? 0)
    }

    /// `transform` applied to the image, or to every frame when it is animated (the result is
    /// then the transformed first frame, carrying the transformed animation).
    public func mappingFrames<E: Error>(_ transform: (Image) throws(E) -> Image) throws(E) -> Image {
        guard let animation else { return try transform(self) }
        return Image(animation: try animation.mapFrames(transform))
    }

    /// An animated image: the first frame's pixels, carrying `animation`.
    public init(animation: ImageAnimation) {
        self = animation.frames[0].image
        self.animation = animation
    }

    public var description: String {
        "Image(\(width)x\(height) \(pixelFormat.rawValue)" + (animation.map { ", \($0.frames.count) frames" } ?? "") + ")"
    }
}
