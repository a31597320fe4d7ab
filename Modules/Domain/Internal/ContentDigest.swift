import Foundation

/// FNV-1a over bytes, as 16 hex digits: a stable validator (the same input gives the same
/// digest in every process), not a cryptographic hash.
package enum ContentDigest {
    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> String {
        let value = fold(bytes, into: hash)
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The digest of `parts`, joined with a separator no part holds.
    package static func hex(_ parts: [String]) -> String { hex(Array(parts.joined(separator: "\u{0}").utf8)) }

    package static func fold<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
