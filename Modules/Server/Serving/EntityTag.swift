import CCrypto
import Foundation

/// A strong validator of an answer, and the one way `If-None-Match` is matched against it.
struct EntityTag: Hashable, Sendable {
    let value: String

    init(_ value: String) {
        self.value = value
    }

    /// A tag from the parts that determine an answer: the first 128 bits of their SHA-256,
    /// in hex. The parts are joined with a separator no part holds.
    init(digesting parts: [String]) {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let bytes = Array(parts.joined(separator: "\u{0}").utf8)
        _ = SHA256(bytes, bytes.count, &digest)
        value = digest.prefix(16).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// `"value"`, as the `ETag` header carries it.
    var header: String { "\"\(value)\"" }

    /// Whether an `If-None-Match` header names this tag, or is `*` (RFC 9110: a weak
    /// comparison, so `W/"value"` matches too).
    func matches(ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == header
        }
    }
}
