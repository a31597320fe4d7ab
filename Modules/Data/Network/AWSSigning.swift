import Foundation

/// Credentials that sign requests to an AWS-style service (S3 or a store speaking its API)
/// with Signature Version 4, for requests whose URL starts with `endpoint`. libcurl
/// computes the signature; the credentials are sent to no other host, redirects included.
public struct AWSSigning: Sendable {
    /// The URL prefix signed requests start with, such as `https://s3.eu-west-1.amazonaws.com/`.
    public var endpoint: String
    public var region: String
    /// The service's name in the signature (`s3`).
    public var service: String
    public var accessKeyID: String
    public var secretAccessKey: String
    /// A temporary credential's token, sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials for `endpoint`.
    public init(endpoint: String, region: String, service: String = "s3", accessKeyID: String, secretAccessKey: String,
                sessionToken: String? = nil) {
        self.endpoint = endpoint
        self.region = region
        self.service = service
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Credentials from the usual variables (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`, `AWS_REGION` or `AWS_DEFAULT_REGION`, else `us-east-1`); `nil`
    /// without a key.
    public init?(endpoint: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"] else { return nil }
        self.init(endpoint: endpoint, region: environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1",
                  accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
    }

    /// libcurl's `CURLOPT_AWS_SIGV4` value.
    var curlProvider: String { "aws:amz:\(region):\(service)" }
}
