/// How the pipeline's encoded stage (``ImagePipeline/encodedImage(for:as:)``) writes an image:
/// the format, fixed or chosen for the image from a list, the quality, and a byte budget.
/// Every value enters the encoded image's cache key.
///
/// ```swift
/// // WebP for a client that takes it, else JPEG, or PNG where there is transparency.
/// let encoding = OutputEncoding(format: .firstFitting([.webp, .jpeg, .png]), quality: 80)
/// let answer = try await pipeline.encodedImage(for: request, as: encoding)
/// ```
public struct OutputEncoding: Hashable, Sendable, CustomStringConvertible {
    /// Which format is written.
    public enum FormatChoice: Hashable, Sendable {
        /// This format, whatever the image holds.
        case fixed(ImageFormat)
        /// The first of `formats` whose encoder carries the image — its transparency, and its
        /// frames when it is animated (``EncoderCapabilities/carries(_:)``); with none that
        /// carries the frames, the first that carries the rest, as a still; with none at all,
        /// the first. The source's own format goes first when it is one of `keepingSource`.
        case firstFitting([ImageFormat], keepingSource: [ImageFormat] = [])
    }

    /// Which format is written.
    public var format: FormatChoice
    /// The quality of lossy formats, 1…100, where ``qualities`` names none for the format.
    public var quality: Int
    /// Qualities by format, over ``quality``.
    public var qualities: [ImageFormat: Int]
    /// With a lossy format, encode again at lower qualities until the bytes fit (down to 10),
    /// as imgproxy's `max_bytes`; `nil`: no budget.
    public var maxBytes: Int?
    /// Lossless where the format offers it (``EncoderCapabilities/lossless``).
    public var lossless: Bool
    /// Joins the cache key and changes nothing else, as imgproxy's cache buster.
    public var variant: String?
    /// Which of the image's metadata is written (``EncodingOptions/metadata``); none by default.
    public var metadata: MetadataPolicy = .strip

    /// An encoding; quality 80 (the default of most tools) unless given.
    public init(format: FormatChoice, quality: Int = 80, qualities: [ImageFormat: Int] = [:], maxBytes: Int? = nil,
                lossless: Bool = false, variant: String? = nil) {
        self.format = format
        self.quality = quality
        self.qualities = qualities
        self.maxBytes = maxBytes
        self.lossless = lossless
        self.variant = variant
    }

    /// The quality `format` is written at.
    public func quality(for format: ImageFormat) -> Int { qualities[format] ?? quality }

    /// The formats this encoding may write.
    public var formats: [ImageFormat] {
        switch format {
        case .fixed(let format): [format]
        case .firstFitting(let formats, let keeping): formats + keeping.filter { !formats.contains($0) }
        }
    }

    /// The format written for `image`, whose source was `source`, by an encoder that
    /// declares `capabilities`.
    public func format(for image: Image, source: ImageFormat?, capabilities: (ImageFormat) -> EncoderCapabilities?) -> ImageFormat {
        switch format {
        case .fixed(let format):
            return format
        case .firstFitting(var formats, let keeping):
            if let source, keeping.contains(source) { formats.insert(source, at: 0) }
            let written = formats.filter { capabilities($0) != nil }
            if let fitting = written.first(where: { capabilities($0)!.carries(image) }) { return fitting }
            if let still = written.first(where: { capabilities($0)!.alpha || !image.pixelFormat.hasAlpha }) { return still }
            return written.first ?? formats.first ?? .png
        }
    }

    /// The parts that decide the bytes, for the cache key.
    public var description: String {
        let choice = switch format {
        case .fixed(let format): format.rawValue
        case let .firstFitting(formats, keeping):
            "first(" + formats.map(\.rawValue).joined(separator: ",") + ")" + (keeping.isEmpty ? "" : "keep(" + keeping.map(\.rawValue).joined(separator: ",") + ")")
        }
        var parts = [choice, "q=\(quality)"]
        if !qualities.isEmpty { parts.append("fq=" + qualities.map { "\($0.key.rawValue):\($0.value)" }.sorted().joined(separator: ":")) }
        if let maxBytes { parts.append("mb=\(maxBytes)") }
        if lossless { parts.append("lossless") }
        if let variant { parts.append("v=\(variant)") }
        if metadata != .strip { parts.append("meta=\(metadata.rawValue)") }
        return parts.joined(separator: ",")
    }
}
