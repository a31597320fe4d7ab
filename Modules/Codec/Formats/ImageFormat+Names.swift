import OspreyDomain

/// The one table of formats' file extensions and media types: the command line's file names,
/// a server's URL extensions, `Content-Type` and `Content-Disposition` all read it.
extension ImageFormat {
    /// Each format's extensions, the one written first, and its media type.
    static let names: [ImageFormat: (extensions: [String], mediaType: String)] = [
        .jpeg: (["jpg", "jpeg"], "image/jpeg"),
        .png: (["png"], "image/png"),
        .webp: (["webp"], "image/webp"),
        .gif: (["gif"], "image/gif"),
        .avif: (["avif"], "image/avif"),
        .heic: (["heic", "heif"], "image/heic"),
        .jxl: (["jxl"], "image/jxl"),
        .tiff: (["tiff", "tif"], "image/tiff"),
        .bmp: (["bmp"], "image/bmp"),
        .ico: (["ico", "cur"], "image/x-icon"),
        .svg: (["svg"], "image/svg+xml"),
    ]

    /// The format a file extension (or an imgproxy URL's extension) names, any case; `nil`
    /// for one no format has.
    public init?(fileExtension: String) {
        let lowercased = fileExtension.lowercased()
        guard let format = Self.names.first(where: { $0.value.extensions.contains(lowercased) })?.key else { return nil }
        self = format
    }

    /// The extension files of this format are written with (`jpg` for JPEG); the format's
    /// name for one the table does not know.
    public var fileExtension: String { Self.names[self]?.extensions.first ?? rawValue }

    /// The extensions of every format in the table.
    public static var knownFileExtensions: Set<String> { Set(names.values.flatMap(\.extensions)) }

    /// Every extension of this format.
    public var fileExtensions: [String] { Self.names[self]?.extensions ?? [rawValue] }

    /// The media type, as `Content-Type` and `Accept` name it: `image/jpeg`, `image/jxl`.
    public var mediaType: String { Self.names[self]?.mediaType ?? "image/" + rawValue }
}
