import Foundation

/// An OAuth access token for Google Cloud's APIs, and when it expires.
struct GCSAccessToken: Sendable, Hashable {
    let value: String
    let expiration: Date

    /// The token of an OAuth answer: `access_token` and `expires_in` seconds from `now`.
    init(json data: Data, from service: String, now: Date = Date()) throws(GCSCredentialError) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let token = object["access_token"] as? String, !token.isEmpty else {
            throw .tokenFailed(service: service, reason: "the answer has no access_token")
        }
        value = token
        expiration = now.addingTimeInterval((object["expires_in"] as? NSNumber)?.doubleValue ?? 3600)
    }
}
