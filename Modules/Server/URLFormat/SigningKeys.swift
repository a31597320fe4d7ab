import CCrypto
import Foundation

/// The key and salt pairs a server accepts signatures from (several while keys rotate), as
/// imgproxy signs: HMAC-SHA256 over salt + path, base64url without padding.
public struct SigningKeys: Sendable {
    /// One key and its salt.
    public struct Pair: Sendable {
        let key: [UInt8]
        let salt: [UInt8]
    }

    /// Every pair accepted; none means signatures are not checked.
    public let pairs: [Pair]
    /// The bytes of the HMAC a signature carries, 1…32: imgproxy's signature size,
    /// which shortens URLs by signing with the digest's first bytes (32, the whole digest, by
    /// default).
    public let signatureSize: Int

    /// No keys: only unsigned URLs can be served, and only where the service allows them.
    public static let none = SigningKeys(pairs: [], signatureSize: 32)

    private init(pairs: [Pair], signatureSize: Int) {
        self.pairs = pairs
        self.signatureSize = signatureSize
    }

    /// Pairs from hex keys and salts, given in the same order (imgproxy's keys
    /// and salts), with signatures of `signatureSize` bytes.
    /// - Throws: ``ImgproxyError/malformed(_:)`` when the counts differ, a value is not hex, or
    ///   the size is not 1…32.
    public init(hexKeys: [String], hexSalts: [String], signatureSize: Int = 32) throws(ImgproxyError) {
        guard (1...32).contains(signatureSize) else { throw .malformed("the signature size is 1…32 bytes") }
        self.signatureSize = signatureSize
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

    /// These pairs, with signatures of `signatureSize` bytes.
    /// - Throws: ``ImgproxyError/malformed(_:)`` unless the size is 1…32.
    public func withSignatureSize(_ signatureSize: Int) throws(ImgproxyError) -> SigningKeys {
        guard (1...32).contains(signatureSize) else { throw .malformed("the signature size is 1…32 bytes") }
        return SigningKeys(pairs: pairs, signatureSize: signatureSize)
    }

    /// The signature of `path` (from the slash after the signature) under `pair`.
    func signature(of path: String, with pair: Pair) -> String {
        var message = pair.salt
        message += Array(path.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), pair.key, Int32(pair.key.count), message, message.count, &digest, &length)
        return Data(digest.prefix(min(Int(length), signatureSize))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `path` (`/{options…}/{source}`) signed with the first pair, as an app that makes its
    /// own URLs signs them; `insecure` in place of a signature when there is no pair.
    public func signed(_ path: String) -> String {
        "/" + (pairs.first.map { signature(of: path, with: $0) } ?? "insecure") + path
    }

    /// Whether `signature` matches `path` under any pair, compared in constant time.
    func verify(_ signature: String, path: String) -> Bool {
        pairs.contains { ConstantTime.equal(signature, self.signature(of: path, with: $0)) }
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
