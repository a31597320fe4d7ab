import Foundation

/// Credentials that sign requests to an AWS-style service (S3 or a store speaking its API)
/// with Signature Version 4. libcurl computes the signature. Only the requests an
/// ``S3DataLoader`` builds are signed, and they follow no redirect, so the credentials reach
/// the store's endpoint and nothing else.
public struct AWSSigning: Sendable {
    public var region: String
    /// The service's name in the signature (`s3`).
    public var service: String
    public var accessKeyID: String
    public var secretAccessKey: String
    /// A temporary credential's token, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials for a service in `region`.
    public init(region: String, service: String = "s3", accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.region = region
        self.service = service
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Credentials from the usual variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`, `AWS_REGION` or `AWS_DEFAULT_REGION`, else `us-east-1`); `nil`
    /// without a key.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"] else { return nil }
        self.init(region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1",
                  accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
    }

    /// libcurl's `CURLOPT_AWS_SIGV4` value.
    var curlProvider: String { "aws:amz:\(region):\(service)" }
}
