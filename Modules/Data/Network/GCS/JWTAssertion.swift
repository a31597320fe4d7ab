import CCrypto
import Foundation

/// A JSON Web Token signed with RS256 (RSASSA-PKCS1-v1_5 with SHA-256), as Google's OAuth
/// token service takes a service account's assertion (RFC 7523), signed by libcrypto.
enum JWTAssertion {
    /// `header.claims.signature`, each base64url without padding.
    static func rs256(claims: [String: Any], pemKey: String) throws(GCSCredentialError) -> String {
        guard let claimsJSON = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else {
            throw .invalidKey("the claims do not encode")
        }
        let signingInput = base64URL(Data(#"{"alg":"RS256","typ":"JWT"}"#.utf8)) + "." + base64URL(claimsJSON)
        return signingInput + "." + base64URL(try sign(Data(signingInput.utf8), pemKey: pemKey))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func sign(_ message: Data, pemKey: String) throws(GCSCredentialError) -> Data {
        let pem = Array(pemKey.utf8)
        guard let bio = pem.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { throw .invalidKey("out of memory") }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else { throw .invalidKey("its private_key is not a PEM private key") }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { throw .invalidKey("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        let signature: [UInt8]? = message.withUnsafeBytes { bytes in
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
                  EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            var output = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &output, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            return Array(output.prefix(length))
        }
        guard let signature else { throw .invalidKey("libcrypto could not sign with its private_key") }
        return Data(signature)
    }
}
