/// The key an image or its bytes are cached under.
///
/// A key has two parts: the **source** (the URL, the file path, or a custom key the caller
/// chose) and the **variant** (target size, content mode and processor identifiers). The
/// memory cache stores processed images under the full key; the disk cache stores original
/// bytes under the source alone (``original``), so one download serves every variant.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// What identifies the encoded bytes: a normalised URL, a file path, or a custom key.
    public let source: String
    /// What identifies the processing applied to them; empty for the original bytes.
    public let variant: String

    /// Creates a key from its two parts.
    public init(source: String, variant: String = "") {
        self.source = source
        self.variant = variant
    }

    /// The key of the original bytes of the same source.
    public var original: CacheKey { CacheKey(source: source) }

    /// `true` when the key names original bytes rather than a processed variant.
    public var isOriginal: Bool { variant.isEmpty }

    /// One string holding both parts, `source` alone for an original.
    public var stringValue: String { variant.isEmpty ? source : source + "#" + variant }

    public var description: String { stringValue }

    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool { lhs.stringValue < rhs.stringValue }
}
