import Foundation

/// How to encode: the format and, for lossy formats, the quality.
public struct EncodingOptions: Hashable, Sendable {
    /// The format to write.
    public var format: ImageFormat
    /// Quality in `0...1` for lossy formats (JPEG, lossy WebP); ignored otherwise.
    public var quality: Double
    /// Lossless encoding where the format offers both (WebP).
    public var lossless: Bool
    /// Which of the image's ``Image/metadata`` is written, where the format carries it
    /// (JPEG, PNG, WebP, AVIF); none by default.
    public var metadata: MetadataPolicy

    /// Creates options.
    public init(format: ImageFormat, quality: Double = 0.8, lossless: Bool = false, metadata: MetadataPolicy = .strip) {
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.metadata = metadata
    }
}
