import CCrypto
import Foundation

/// A JSON Web Token signed with RS256 (RSASSA-PKCS1-v1_5 with SHA-256) by libcrypto, as
/// OAuth token services take a client's assertion (RFC 7523): Google's for a service
/// account's key, Microsoft Entra's for a service principal's certificate.
enum JWTAssertion {
    /// Why no assertion could be signed.
    struct Failure: Error {
        let reason: String
    }

    /// `header.claims.signature`, each base64url without padding, signed with the PEM
    /// private key `pemKey`; `header` adds fields to `alg` and `typ` (Entra's `x5t`, `x5c`).
    static func rs256(claims: [String: Any], pemKey: String, header: [String: any Sendable] = [:]) throws(Failure) -> String {
        let pem = Array(pemKey.utf8)
        guard let bio = pem.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { throw Failure(reason: "out of memory") }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { throw Failure(reason: "no PEM private key") }
        defer { EVP_PKEY_free(key) }
        return try rs256(claims: claims, key: key, header: header)
    }

    /// The same, signed with a key libcrypto holds.
    static func rs256(claims: [String: Any], key: OpaquePointer, header: [String: any Sendable] = [:]) throws(Failure) -> String {
        let fields: [String: any Sendable] = header.merging(["alg": "RS256", "typ": "JWT"]) { _, fixed in fixed }
        guard let headerJSON = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]),
              let claimsJSON = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else {
            throw Failure(reason: "the claims do not encode")
        }
        let signingInput = base64URL(headerJSON) + "." + base64URL(claimsJSON)
        return signingInput + "." + base64URL(try sign(Data(signingInput.utf8), key: key))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func sign(_ message: Data, key: OpaquePointer) throws(Failure) -> Data {
        guard let context = EVP_MD_CTX_new() else { throw Failure(reason: "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        let signature: [UInt8]? = message.withUnsafeBytes { bytes in
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
                  EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            var output = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &output, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            return Array(output.prefix(length))
        }
        guard let signature else { throw Failure(reason: "libcrypto could not sign with the key") }
        return Data(signature)
    }
}
