/// What an encoder can write in one format: the one declaration negotiation, storage
/// formats, a server and the command line read to learn which formats keep an animation or
/// transparency.
public struct EncoderCapabilities: Hashable, Sendable {
    /// The format written.
    public var format: ImageFormat
    /// Every frame of an animation is written (otherwise the first frame only).
    public var animation: Bool
    /// Transparency is kept (otherwise it is flattened).
    public var alpha: Bool
    /// A lossless mode is offered (``EncodingOptions/lossless``).
    public var lossless: Bool
    /// ``EncodingOptions/quality`` is honoured (a lossy format).
    public var quality: Bool
    /// 16-bit images are written with more than 8 bits a sample (otherwise narrowed first).
    public var highBitDepth: Bool
    /// An HDR signal (``Image/colorCodePoints``, PQ or HLG) is written as such, its code points
    /// stated (otherwise tone-mapped to SDR and narrowed first).
    public var hdr: Bool

    /// Declares what an encoder writes in `format`.
    public init(format: ImageFormat, animation: Bool, alpha: Bool, lossless: Bool, quality: Bool, highBitDepth: Bool = false, hdr: Bool = false) {
        self.format = format
        self.animation = animation
        self.alpha = alpha
        self.lossless = lossless
        self.quality = quality
        self.highBitDepth = highBitDepth
        self.hdr = hdr
    }

    /// Whether this format keeps what `image` holds: its transparency, and every frame when
    /// it is animated.
    public func carries(_ image: Image) -> Bool {
        (alpha || !image.pixelFormat.hasAlpha) && (animation || image.animation == nil)
    }

    /// Whether `image`'s samples are written at their depth: a 16-bit image where the format
    /// holds more than 8 bits, an HDR signal where it can also state its code points.
    public func keepsDepth(of image: Image) -> Bool {
        image.colorCodePoints?.isHDR == true ? hdr && highBitDepth : highBitDepth
    }
}
