/// An image and where it came from.
public struct ImageResponse: Sendable {
    /// The decoded, processed image.
    public let image: Image
    /// The tier that answered.
    public let tier: Tier
    /// The time from the call to its answer.
    public let duration: Duration
    /// What is known of the source's bytes this answer was made from: the origin's validators
    /// and freshness, and the format. `nil` when the memory cache held the processed image; for
    /// a file, its format alone; for an image made from the source's reduction, the bytes the
    /// reduction was decoded from.
    /// A server derives its own validators from it (an ETag that outlives a restart).
    public let source: CachedDataMetadata?

    /// ``duration`` in milliseconds, for printing: `print(response.milliseconds)`.
    public var milliseconds: Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    /// Creates a response.
    public init(image: Image, tier: Tier, duration: Duration, source: CachedDataMetadata? = nil) {
        self.image = image
        self.tier = tier
        self.duration = duration
        self.source = source
    }

    /// The tier that answered a request.
    public enum Tier: String, Hashable, Sendable, CaseIterable {
        /// The memory cache held the processed image.
        case memory
        /// The disk cache held the bytes; they were decoded and processed.
        case disk
        /// A shared cache (Redis, behind the disk cache) held the bytes; they were copied to
        /// the disk cache, decoded and processed.
        case shared
        /// The bytes were downloaded, then decoded and processed.
        case network
        /// A local file source was decoded and processed (files are never copied to the disk cache).
        case file
    }
}
