/// The layout of one pixel in an ``Image``'s storage: 8 bits per channel, channels in order.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// One luminance byte.
    case gray8
    /// Red, green, blue.
    case rgb8
    /// Red, green, blue and alpha, colour not multiplied by alpha.
    case rgba8
    /// Red, green, blue and alpha, colour already multiplied by alpha.
    case rgba8Premultiplied

    /// Bytes one pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: 1
        case .rgb8: 3
        case .rgba8, .rgba8Premultiplied: 4
        }
    }

    /// `true` when the format carries an alpha channel.
    public var hasAlpha: Bool { self == .rgba8 || self == .rgba8Premultiplied }
}
