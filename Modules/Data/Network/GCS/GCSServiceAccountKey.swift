import Foundation

/// A Google Cloud service account's JSON key, the fields a token is asked with.
struct GCSServiceAccountKey: Sendable, Hashable {
    let clientEmail: String
    /// The RSA private key, PEM.
    let privateKey: String
    /// Where the signed assertion is exchanged for a token.
    let tokenURI: URL

    /// - Throws: ``GCSCredentialError/invalidKey(_:)`` for JSON that is not a service account's key.
    init(json: String) throws(GCSCredentialError) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            throw .invalidKey("not a JSON object")
        }
        guard object["type"] as? String == "service_account" else { throw .invalidKey("its type is not service_account") }
        guard let email = object["client_email"] as? String, let key = object["private_key"] as? String, key.contains("PRIVATE KEY") else {
            throw .invalidKey("it has no client_email and private_key")
        }
        let uri = (object["token_uri"] as? String).flatMap(URL.init(string:)) ?? URL(string: "https://oauth2.googleapis.com/token")!
        guard let scheme = uri.scheme?.lowercased(), scheme == "https" || scheme == "http" else { throw .invalidKey("its token_uri is not a URL") }
        clientEmail = email
        privateKey = key
        tokenURI = uri
    }
}
