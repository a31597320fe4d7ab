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

    /// One string holding both parts, `source` alone for an original: `source#variant`.
    ///
    /// A source that holds `#` itself (a custom key, a file path) is written escaped, behind a
    /// U+0001, so the first `#` always separates the parts and no two keys share a string. Every
    /// other source is written as it is, so keys stored before stay valid.
    public var stringValue: String {
        let stored = Self.storedSource(source)
        return variant.isEmpty ? stored : stored + "#" + variant
    }

    /// The key whose ``stringValue`` is `stringValue`.
    public init(stringValue: String) {
        let (stored, variant) = stringValue.firstIndex(of: "#").map {
            (String(stringValue[..<$0]), String(stringValue[stringValue.index(after: $0)...]))
        } ?? (stringValue, "")
        self.init(source: Self.source(stored: stored), variant: variant)
    }

    /// How `source` is written in ``stringValue``: escaped only when it holds `#` or starts with U+0001.
    public static func storedSource(_ source: String) -> String {
        // Bytes, not Characters: this runs on every cache lookup.
        guard source.utf8.contains(UInt8(ascii: "#")) || source.utf8.first == 1 else { return source }
        return "\u{1}" + source.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "#", with: "%23")
    }

    private static func source(stored: String) -> String {
        guard stored.hasPrefix("\u{1}") else { return stored }
        return String(stored.dropFirst()).replacingOccurrences(of: "%23", with: "#").replacingOccurrences(of: "%25", with: "%")
    }

    public var description: String { stringValue }

    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool { lhs.stringValue < rhs.stringValue }
}
