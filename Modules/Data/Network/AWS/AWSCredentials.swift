import Foundation

/// A set of AWS credentials, and when they stop working.
public struct AWSCredentials: Sendable, Hashable {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// A temporary credential's token, sent as `x-amz-security-token`.
    public var sessionToken: String?
    /// When temporary credentials expire; `nil` for long-term keys.
    public var expiration: Date?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    /// What signs a request to `service` in `region` with these credentials.
    public func signing(region: String, service: String = "s3") -> AWSSigning {
        AWSSigning(region: region, service: service, accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, sessionToken: sessionToken)
    }
}

extension AWSCredentials: AWSCredentialProviding {
    /// Fixed credentials are their own provider.
    public func credentials() async throws -> AWSCredentials { self }
}
