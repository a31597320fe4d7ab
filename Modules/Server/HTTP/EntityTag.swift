import Foundation

/// The validator of an answer (the pipeline's `EncodedImage.entityTag`), and
/// the one way `If-None-Match` is matched against it.
struct EntityTag: Hashable, Sendable {
    let value: String
    let isWeak: Bool

    init(_ value: String, isWeak: Bool = false) {
        self.value = value
        self.isWeak = isWeak
    }

    /// A tag as `header` writes it; `nil` for anything else.
    init?(header: String) {
        let isWeak = header.hasPrefix("W/")
        let quoted = isWeak ? header.dropFirst(2) : Substring(header)
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else { return nil }
        self.init(String(quoted.dropFirst().dropLast()), isWeak: isWeak)
    }

    /// `"value"`, or `W/"value"` when weak, as the `ETag` header carries it.
    var header: String { (isWeak ? "W/" : "") + opaque }

    private var opaque: String { "\"\(value)\"" }

    /// Whether an `If-None-Match` header names this tag, or is `*` (RFC 9110: a weak
    /// comparison, so the weak and strong forms of a tag match each other).
    func matches(ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == opaque
        }
    }
}
