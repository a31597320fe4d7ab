/// Why a request to Azure Blob Storage could not be authorised.
public enum ABSCredentialError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The account key is not base64.
    case invalidKey
    /// A variable or file the credential needs is missing or unreadable, and which.
    case incomplete(String)
    /// The token service (Entra ID, the managed identity endpoint) gave no token, and why.
    case tokenFailed(service: String, reason: String)

    public var description: String {
        switch self {
        case .invalidKey: "the Azure storage account key is not base64"
        case .incomplete(let what): "the Azure credential is incomplete: \(what)"
        case let .tokenFailed(service, reason): "\(service) gave no access token: \(reason)"
        }
    }
}
