import Foundation

/// An OAuth 2 access token and when it expires, as token services answer it: `access_token`
/// with `expires_in` seconds (a number or, from Azure's managed identity, a string) or an
/// `expires_on` time in seconds since 1970.
struct OAuthToken: Sendable, Hashable {
    let value: String
    let expiration: Date

    init?(json data: Data, now: Date = Date()) {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let token = object["access_token"] as? String, !token.isEmpty else { return nil }
        func seconds(_ key: String) -> Double? {
            (object[key] as? NSNumber)?.doubleValue ?? (object[key] as? String).flatMap(Double.init)
        }
        value = token
        if let within = seconds("expires_in") {
            expiration = now.addingTimeInterval(within)
        } else if let on = seconds("expires_on") {
            expiration = Date(timeIntervalSince1970: on)
        } else {
            expiration = now.addingTimeInterval(3600)
        }
    }
}
