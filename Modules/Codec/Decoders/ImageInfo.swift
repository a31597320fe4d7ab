import OspreyDomain

/// What an image's header says about it, read without decoding its pixels.
public struct ImageInfo: Hashable, Sendable, Codable {
    /// The format, such as `jpeg`.
    public var format: String
    /// Width as displayed, after EXIF orientation.
    public var width: Int
    /// Height as displayed, after EXIF orientation.
    public var height: Int
    /// The EXIF orientation value (1 when absent or invalid).
    public var orientation: Int
    /// Whether the decoded image carries alpha.
    public var hasAlpha: Bool
    /// Frames in the file: 1 except for animations.
    public var frameCount: Int

    /// Creates image information.
    public init(format: ImageFormat, width: Int, height: Int, orientation: Int, hasAlpha: Bool, frameCount: Int) {
        self.format = format.rawValue
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
    }
}
