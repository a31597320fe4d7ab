/// What a decoder does with an image's embedded colour profile.
public enum ColorHandling: String, Hashable, Sendable, CaseIterable {
    /// Converts the pixels to sRGB through the embedded profile (relative colorimetric, as
    /// `vipsthumbnail --export-profile srgb` does), so they show the same on every screen.
    /// Untagged images are taken to be sRGB already.
    case convertToSRGB
    /// Leaves the pixels as stored and carries the profile on the ``Image`` so encoders
    /// embed it again.
    case preserve
}
