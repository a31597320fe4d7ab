import CCrypto
import Foundation

/// A service principal's certificate (`AZURE_CLIENT_CERTIFICATE_PATH`, PEM with the private
/// key, or PKCS#12 with `AZURE_CLIENT_CERTIFICATE_PASSWORD`), as Azure's SDKs use it: a client
/// assertion signed RS256 with the key, naming the certificate by its SHA-1 thumbprint
/// (`x5t`). The file is read at each token request, so a rotated certificate is picked up.
struct ABSClientCertificate: Sendable {
    let path: String
    let password: String?
    /// Whether the certificate goes in the assertion too (`x5c`, `AZURE_CLIENT_CERTIFICATE_CHAIN`),
    /// for subject name and issuer authentication.
    var sendsChain = false

    /// An assertion for `tokenURL` as `clientID`, valid ten minutes.
    func assertion(tokenURL: URL, clientID: String) throws(ABSCredentialError) -> String {
        guard let contents = FileManager.default.contents(atPath: path) else { throw .incomplete("cannot read \(path)") }
        let (key, certificate) = try Self.keyAndCertificate(contents, password: password, path: path)
        defer { EVP_PKEY_free(key); X509_free(certificate) }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &der)
        guard length > 0, let der else { throw .incomplete("\(path): the certificate does not encode") }
        defer { CRYPTO_free(der, #fileID, #line) }
        var thumbprint = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = SHA1(der, Int(length), &thumbprint)
        let now = Int(Date().timeIntervalSince1970)
        let claims: [String: Any] = ["aud": tokenURL.absoluteString, "iss": clientID, "sub": clientID, "jti": UUID().uuidString,
                                     "nbf": now, "iat": now, "exp": now + 600]
        do {
            var header: [String: any Sendable] = ["x5t": JWTAssertion.base64URL(Data(thumbprint))]
            if sendsChain { header["x5c"] = [Data(bytes: der, count: Int(length)).base64EncodedString()] }
            return try JWTAssertion.rs256(claims: claims, key: key, header: header)
        } catch {
            throw .incomplete("\(path): \(error.reason)")
        }
    }

    /// The private key and the certificate in a PEM file (both in it, any order) or a PKCS#12 one.
    private static func keyAndCertificate(_ contents: Data, password: String?, path: String) throws(ABSCredentialError) -> (OpaquePointer, OpaquePointer) {
        let bytes = [UInt8](contents)
        func bio() -> OpaquePointer? { bytes.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) } }
        if contents.starts(with: Data("-----".utf8)) || String(decoding: contents.prefix(4096), as: UTF8.self).contains("-----BEGIN") {
            guard let keyBIO = bio(), let certificateBIO = bio() else { throw .incomplete("out of memory") }
            defer { BIO_free(keyBIO); BIO_free(certificateBIO) }
            guard let key = PEM_read_bio_PrivateKey(keyBIO, nil, nil, nil) else { throw .incomplete("\(path) has no PEM private key") }
            guard let certificate = PEM_read_bio_X509(certificateBIO, nil, nil, nil) else {
                EVP_PKEY_free(key)
                throw .incomplete("\(path) has no PEM certificate")
            }
            return (key, certificate)
        }
        guard let pkcs12BIO = bio() else { throw .incomplete("out of memory") }
        defer { BIO_free(pkcs12BIO) }
        guard let pkcs12 = d2i_PKCS12_bio(pkcs12BIO, nil) else { throw .incomplete("\(path) is neither PEM nor PKCS#12") }
        defer { PKCS12_free(pkcs12) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        guard PKCS12_parse(pkcs12, password ?? "", &key, &certificate, nil) == 1, let key, let certificate else {
            throw .incomplete("\(path): cannot open the PKCS#12 file (AZURE_CLIENT_CERTIFICATE_PASSWORD?)")
        }
        return (key, certificate)
    }
}
