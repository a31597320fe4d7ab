/// Why no AWS credentials could be had.
public enum AWSCredentialError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No source in the chain applies (no variables, no profile, the instance metadata
    /// service turned off).
    case noCredentials
    /// `AWS_PROFILE` (or a `source_profile`) names a profile neither shared file has.
    case profileNotFound(String)
    /// The profile is one Osprey cannot use, and why (an SSO profile without its session, a loop of profiles).
    case unsupportedProfile(String, reason: String)
    /// A file the chain needs (a web identity token, a shared file) could not be read.
    case unreadableFile(path: String, reason: String)
    /// A credential service (STS, a container's or the instance's endpoint, a credential
    /// process) answered with an error.
    case serviceFailed(service: String, reason: String)

    public var description: String {
        switch self {
        case .noCredentials:
            "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a web identity, a profile, or run where a container or instance role is"
        case let .profileNotFound(name): "no AWS profile '\(name)' in the shared config or credentials file"
        case let .unsupportedProfile(name, reason): "AWS profile '\(name)' cannot be used: \(reason)"
        case let .unreadableFile(path, reason): "cannot read \(path): \(reason)"
        case let .serviceFailed(service, reason): "\(service) gave no credentials: \(reason)"
        }
    }
}
