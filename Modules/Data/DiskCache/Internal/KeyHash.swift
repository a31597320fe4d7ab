import CCrypto
import OspreyDomain

/// File names for cache keys: the SHA-256 of the key, never anything a caller controls.
enum KeyHash {
    /// The key's SHA-256 in lowercase hex.
    static func hex(of key: CacheKey) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let bytes = Array(key.stringValue.utf8)
        _ = SHA256(bytes, bytes.count, &digest)
        return digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
