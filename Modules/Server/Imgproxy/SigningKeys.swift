import CCrypto
import Foundation

/// The key and salt pairs a server accepts signatures from (several while keys rotate), as
/// imgproxy signs: HMAC-SHA256 over salt + path, base64url without padding.
package struct SigningKeys: Sendable {
    package struct Pair: Sendable {
        let key: [UInt8]
        let salt: [UInt8]
    }

    package let pairs: [Pair]

    /// Pairs from hex keys and salts, given in the same order.
    /// - Throws: a message when the counts differ or a value is not hex.
    package init(hexKeys: [String], hexSalts: [String]) throws(ImgproxyError) {
        guard hexKeys.count == hexSalts.count else { throw .malformed("give as many --salt as --key values") }
        var pairs: [Pair] = []
        for (key, salt) in zip(hexKeys, hexSalts) {
            guard let k = Self.bytes(hex: key), let s = Self.bytes(hex: salt), !k.isEmpty else {
                throw .malformed("keys and salts are hex strings")
            }
            pairs.append(Pair(key: k, salt: s))
        }
        self.pairs = pairs
    }

    /// The signature of `path` (from the slash after the signature) under `pair`.
    package static func signature(of path: String, with pair: Pair) -> String {
        var message = pair.salt
        message += Array(path.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), pair.key, Int32(pair.key.count), message, message.count, &digest, &length)
        return Data(digest.prefix(Int(length))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `signature` matches `path` under any pair, compared in constant time.
    package func verify(_ signature: String, path: String) -> Bool {
        pairs.contains { pair in
            let expected = Array(Self.signature(of: path, with: pair).utf8), given = Array(signature.utf8)
            guard expected.count == given.count else { return false }
            return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
