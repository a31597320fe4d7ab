import Foundation

/// A strong validator of an answer, and the one way `If-None-Match` is matched against it.
struct EntityTag: Hashable, Sendable {
    let value: String

    init(_ value: String) {
        self.value = value
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
