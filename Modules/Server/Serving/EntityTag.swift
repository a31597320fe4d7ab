import CCrypto
import Foundation

/// The validator of an answer, and the one way `If-None-Match` is matched against it.
///
/// A tag made from the source's validators is weak: the same source, options and format
/// always give the same image, but not always the same bytes (a size may be made from the
/// source's reduction or from a decode of its own, `Docs/SERVER.md`). A tag made from the
/// bytes themselves is strong.
struct EntityTag: Hashable, Sendable {
    let value: String
    let isWeak: Bool

    init(_ value: String, isWeak: Bool = false) {
        self.value = value
        self.isWeak = isWeak
    }

    /// A tag from the parts that determine an answer: the first 128 bits of their SHA-256,
    /// in hex. The parts are joined with a separator no part holds.
    init(digesting parts: [String], isWeak: Bool) {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let bytes = Array(parts.joined(separator: "\u{0}").utf8)
        _ = SHA256(bytes, bytes.count, &digest)
        self.init(digest.prefix(16).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(), isWeak: isWeak)
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
