/// How processed images are written: a fixed format, or ``auto``.
public enum StorageFormat: Hashable, Sendable {
    /// PNG when the image has alpha, JPEG at quality 0.8 otherwise — so transparency is
    /// never lost to JPEG, a known complaint about re-encoding stickers — and for an animation
    /// the first of the three whose encoder keeps its frames (WebP).
    case auto
    /// PNG, lossless with alpha.
    case png
    /// JPEG at a quality in `0...1`.
    case jpeg(quality: Double)
    /// WebP at a quality in `0...1`, or lossless.
    case webp(quality: Double, lossless: Bool = false)
    /// AVIF at a quality in `0...1`: the smallest files, the slowest to encode. An animation
    /// is written as WebP where the AVIF encoder writes stills.
    case avif(quality: Double)

    /// As the encoded stage writes it: the format chosen for each image by what the encoder
    /// declares it can carry.
    public var encoding: OutputEncoding {
        switch self {
        case .auto: OutputEncoding(format: .firstFitting([.jpeg, .png, .webp]), quality: 80)
        case .png: OutputEncoding(format: .fixed(.png))
        case .jpeg(let quality): OutputEncoding(format: .fixed(.jpeg), quality: Self.percent(quality))
        case .webp(let quality, let lossless): OutputEncoding(format: .fixed(.webp), quality: Self.percent(quality), lossless: lossless)
        case .avif(let quality): OutputEncoding(format: .firstFitting([.avif, .webp]), quality: Self.percent(quality))
        }
    }

    /// The encoding options this storage format picks for `image`, written by `encoder`.
    public func options(for image: Image, writtenBy encoder: any ImageEncoding) -> EncodingOptions {
        let encoding = encoding
        let format = encoding.format(for: image, source: nil, capabilities: encoder.capabilities(for:))
        return EncodingOptions(format: format, quality: Double(encoding.quality(for: format)) / 100, lossless: encoding.lossless)
    }

    private static func percent(_ quality: Double) -> Int { max(1, min(100, Int((quality * 100).rounded()))) }
}
