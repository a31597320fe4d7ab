import Foundation

/// An image as the encoded stage delivers it: its bytes and format, a validator, what is
/// known of the source it was made from, and where it came from.
public struct EncodedImage: Sendable {
    /// The encoded bytes.
    public let data: Data
    /// Their format.
    public let format: ImageFormat
    /// The image's size in pixels.
    public let size: PixelSize
    /// An HTTP entity tag for these bytes, as the `ETag` header writes it: weak (`W/"…"`)
    /// when made from the source's validators (the same source and encoding always give the
    /// same image, though not always the same bytes), strong when made from the bytes.
    public let entityTag: String
    /// The source's `Last-Modified`, `ETag`, freshness and format (a local file's format alone).
    public let source: CachedDataMetadata?
    /// Where the encoded bytes were found: ``ImageResponse/Tier/memory``,
    /// ``ImageResponse/Tier/disk`` or ``ImageResponse/Tier/shared`` for bytes kept from
    /// before; `nil` when they were encoded for this call.
    public let keptIn: ImageResponse.Tier?
    /// For bytes encoded for this call, where the image came from.
    public let imageTier: ImageResponse.Tier?
    /// How long the call took.
    public internal(set) var duration: Duration

    /// Creates a response.
    public init(data: Data, format: ImageFormat, size: PixelSize, entityTag: String, source: CachedDataMetadata?,
                keptIn: ImageResponse.Tier?, imageTier: ImageResponse.Tier?, duration: Duration = .zero) {
        self.data = data
        self.format = format
        self.size = size
        self.entityTag = entityTag
        self.source = source
        self.keptIn = keptIn
        self.imageTier = imageTier
        self.duration = duration
    }
}
