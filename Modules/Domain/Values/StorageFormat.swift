
/// How processed images are written: a fixed format, or ``auto``.
public enum StorageFormat: Hashable, Sendable {
    /// PNG when the image has alpha, JPEG at quality 0.8 otherwise — so transparency is
    /// never lost to JPEG, a known complaint about re-encoding stickers — and WebP at
    /// quality 0.8 for an animation, the one of the three that keeps its frames.
    case auto
    /// PNG, lossless with alpha.
    case png
    /// JPEG at a quality in `0...1`.
    case jpeg(quality: Double)
    /// WebP at a quality in `0...1`, or lossless.
    case webp(quality: Double, lossless: Bool = false)
    /// AVIF at a quality in `0...1`: the smallest files, the slowest to encode. Animations
    /// are written as WebP (Osprey's AVIF encoder writes stills).
    case avif(quality: Double)

    /// The encoding options this storage format picks for `image`.
    public func options(for image: Image) -> EncodingOptions {
        switch self {
        case .auto where image.animation != nil: EncodingOptions(format: .webp, quality: 0.8)
        case .auto: image.pixelFormat.hasAlpha ? EncodingOptions(format: .png) : EncodingOptions(format: .jpeg, quality: 0.8)
        case .png: EncodingOptions(format: .png)
        case .jpeg(let quality): EncodingOptions(format: .jpeg, quality: quality)
        case .webp(let quality, let lossless): EncodingOptions(format: .webp, quality: quality, lossless: lossless)
        case .avif where image.animation != nil: EncodingOptions(format: .webp, quality: 0.8)
        case .avif(let quality): EncodingOptions(format: .avif, quality: quality)
        }
    }
}
