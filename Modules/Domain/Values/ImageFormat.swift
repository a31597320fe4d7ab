/// An encoded image format, identified by name.
///
/// A struct rather than an enum so codecs can name formats Osprey does not know yet.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The format's short lowercase name, such as `jpeg`.
    public var rawValue: String

    /// Creates a format from its short name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// JPEG (JFIF, EXIF).
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    /// PNG.
    public static let png = ImageFormat(rawValue: "png")
    /// WebP (lossy, lossless, extended, animated).
    public static let webp = ImageFormat(rawValue: "webp")
    /// GIF (stills and animations).
    public static let gif = ImageFormat(rawValue: "gif")
    /// HEIC and other HEIF files (decoded, not encoded).
    public static let heic = ImageFormat(rawValue: "heic")
    /// AVIF (stills and sequences).
    public static let avif = ImageFormat(rawValue: "avif")
    /// JPEG XL (stills and animations; bare codestreams and the container).
    public static let jxl = ImageFormat(rawValue: "jxl")
    /// TIFF (pages; strips and tiles).
    public static let tiff = ImageFormat(rawValue: "tiff")
    /// BMP (Windows and OS/2 bitmaps).
    public static let bmp = ImageFormat(rawValue: "bmp")
    /// ICO (icons and cursors; PNG and bitmap entries).
    public static let ico = ImageFormat(rawValue: "ico")
    /// SVG (rasterised; never encoded).
    public static let svg = ImageFormat(rawValue: "svg")

    public var description: String { rawValue }
}
