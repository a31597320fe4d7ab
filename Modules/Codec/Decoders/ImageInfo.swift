import OspreyDomain

/// What an image's header says about it, read without decoding its pixels.
public struct ImageInfo: Hashable, Sendable, Codable {
    /// The format (encoded as its name, such as `jpeg`).
    public var format: ImageFormat
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
    /// How many times an animation plays (`0`: forever); `nil` for a still.
    public var loopCount: Int?
    /// The embedded colour profile's description, such as `Display P3`; `nil` when untagged.
    /// A profile without a description is named `ICC profile`.
    public var colorProfile: String?
    /// Bits per sample as stored, where the format has several (AVIF, HEIC); `nil` otherwise.
    public var bitDepth: Int?
    /// Whether decoding converts the pixels to sRGB through that profile by default
    /// (`false` when untagged, or when the profile is unusable and ignored).
    public var convertsToSRGB: Bool

    /// Creates image information.
    public init(format: ImageFormat, width: Int, height: Int, orientation: Int, hasAlpha: Bool, frameCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.frameCount = frameCount
        self.loopCount = nil
        self.bitDepth = nil
        self.colorProfile = nil
        self.convertsToSRGB = false
    }

    /// Records `profile` and whether it converts pixels of `pixelFormat` (`nil`: CMYK) to sRGB.
    mutating func describe(_ profile: ColorProfile?, pixelFormat: PixelFormat?, cmykInverted: Bool = false) {
        guard let profile else { return }
        colorProfile = ColorManagement.named(profile).name ?? "ICC profile"
        if let pixelFormat {
            convertsToSRGB = ColorManagement.isUsable(profile.data, for: pixelFormat)
        } else {
            convertsToSRGB = ColorManagement.Transform(cmykProfile: profile.data, inverted: cmykInverted) != nil
        }
    }
}
