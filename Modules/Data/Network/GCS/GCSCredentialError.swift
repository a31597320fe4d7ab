/// Why no Google Cloud access token could be had.
public enum GCSCredentialError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key is not a service account's JSON key (imgproxy accepts only those), and why.
    case invalidKey(String)
    /// The token service (the key's `token_uri`, or the metadata server) gave no token, and why.
    case tokenFailed(service: String, reason: String)

    public var description: String {
        switch self {
        case .invalidKey(let reason): "the Google Cloud key cannot be used: \(reason)"
        case let .tokenFailed(service, reason): "\(service) gave no access token: \(reason)"
        }
    }
}
