/// The layout of one pixel in an ``Image``'s storage: channels in order, 8 bits each, or 16
/// (native byte order) for the high-bit-depth formats a decoder gives only when asked
/// (``DecodingOptions/keepsHighBitDepth``).
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// One luminance byte.
    case gray8
    /// Red, green, blue.
    case rgb8
    /// Red, green, blue and alpha, colour not multiplied by alpha.
    case rgba8
    /// Red, green, blue and alpha, colour already multiplied by alpha.
    case rgba8Premultiplied
    /// One 16-bit luminance sample.
    case gray16
    /// Red, green, blue, 16 bits each.
    case rgb16
    /// Red, green, blue and alpha, 16 bits each, colour not multiplied by alpha.
    case rgba16

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int { channels * (isHighBitDepth ? 2 : 1) }

    /// Samples one pixel has.
    public var channels: Int {
        switch self {
        case .gray8, .gray16: 1
        case .rgb8, .rgb16: 3
        case .rgba8, .rgba8Premultiplied, .rgba16: 4
        }
    }

    /// `true` for 16 bits a sample.
    public var isHighBitDepth: Bool { self == .gray16 || self == .rgb16 || self == .rgba16 }

    /// The 8-bit format with the same channels (straight alpha for `rgba16`).
    public var eightBit: PixelFormat {
        switch self {
        case .gray16: .gray8
        case .rgb16: .rgb8
        case .rgba16: .rgba8
        default: self
        }
    }

    /// `true` when the format carries an alpha channel.
    public var hasAlpha: Bool { channels == 4 }
}
