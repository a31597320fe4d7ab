import Foundation

/// AWS credentials found as AWS's own SDKs find them, and renewed before they expire.
///
/// The source is chosen once, in the SDKs' order: `AWS_ACCESS_KEY_ID` and
/// `AWS_SECRET_ACCESS_KEY`; a web identity (`AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN`,
/// as EKS sets them); the profile `AWS_PROFILE` (else `default`) of the shared config and
/// credentials files, with its keys, its `role_arn` and `source_profile` or
/// `credential_source`, its `web_identity_token_file`, its `credential_process` or its SSO
/// session (the token `aws sso login` cached); ECS's container endpoint
/// (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` or `_FULL_URI`, with
/// `AWS_CONTAINER_AUTHORIZATION_TOKEN` or `_TOKEN_FILE`); EC2's instance metadata service
/// (IMDSv2, v1 where the service gives no token, `AWS_EC2_METADATA_SERVICE_ENDPOINT`, off
/// with `AWS_EC2_METADATA_DISABLED`). A
/// role to assume on top of any of them (imgproxy's `IMGPROXY_S3_ASSUME_ROLE_ARN`) is
/// assumed through STS (`AWS_ENDPOINT_URL_STS` honoured).
///
/// Temporary credentials are fetched on the first request that needs them, shared by every
/// request, and fetched again five minutes before they expire.
///
/// ```swift
/// let chain = try AWSCredentialChain()
/// let store = try S3DataLoader.Store(endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!, region: "eu-west-1", credentials: chain)
/// ```
public final class AWSCredentialChain: AWSCredentialProviding {
    /// A role assumed with the credentials the chain finds, and the external ID its trust
    /// policy may require.
    public struct RoleToAssume: Sendable, Hashable {
        public var arn: String
        public var externalID: String?
        public init(arn: String, externalID: String? = nil) {
            self.arn = arn
            self.externalID = externalID
        }
    }

    /// The region the environment or the profile names (`AWS_REGION`, `AWS_DEFAULT_REGION`,
    /// the profile's `region`), if any.
    public let region: String?
    let source: AWSCredentialSource
    private let context: AWSCredentialSource.Context
    private let cache = RenewingCache<AWSCredentials>(margin: 5 * 60) { $0.expiration }

    /// Chooses the source from `environment` and the shared files; fetches nothing yet.
    /// - Parameter network: the loader the credential services are called through; by
    ///   default one of the chain's own, with short timeouts (off an EC2 instance, the
    ///   metadata service's address answers nothing).
    /// - Throws: ``AWSCredentialError`` when no source applies or the named profile cannot be used.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment, assuming role: RoleToAssume? = nil,
                network: CurlDataLoader? = nil) throws(AWSCredentialError) {
        // The shared files read once, for the source and the region; an unreadable one fails
        // the start only when the source needs it.
        let config = try? AWSSharedConfig(environment: environment)
        var source = try AWSCredentialSource.resolve(environment, config: config)
        if let role {
            source = .assumeRole(roleARN: role.arn, externalID: role.externalID, sessionName: AWSCredentialSource.defaultSessionName, base: source)
        }
        self.source = source
        region = AWSCredentialSource.region(environment, config: config)
        let stsRegion = region ?? "us-east-1"
        let loader = network ?? CurlDataLoader(configuration: CurlDataLoader.Configuration(connectTimeout: 2, transferTimeout: 10, maxRetries: 0))
        context = AWSCredentialSource.Context(
            network: loader, sts: STSClient(network: loader, endpoint: AWSEndpoints(environment: environment).url(.sts, region: stsRegion), region: stsRegion))
    }

    /// Who gives the credentials ("the environment", "web identity for arn:…", …), for logs.
    public var sourceName: String { source.name }

    public func credentials() async throws -> AWSCredentials {
        let source = source, context = context
        return try await cache.value { try await source.fetch(context) }
    }
}
