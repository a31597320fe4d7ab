#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// AWS's endpoints that moto does not answer — EC2's IMDSv2, ECS's container endpoint, STS's
/// `AssumeRoleWithWebIdentity` with moto's signature checks on, S3's redirect to a bucket's
/// region — as their published contracts describe them, strict about tokens and headers, on
/// a loopback port (`Tests/Scripts/aws_endpoint_fakes.py`). The credential endpoints give the
/// credentials set with ``set(_:)``; ``hits()`` counts the answers given.
public final class AWSEndpointFakes: @unchecked Sendable {
    /// What the endpoints hand out and ask for.
    public struct State: Codable, Sendable {
        public var access_key_id: String
        public var secret_access_key: String
        public var session_token: String
        /// ISO 8601.
        public var expiration: String
        /// The container endpoint's `Authorization` value; `nil`: none asked.
        public var authorization: String?
        public var web_identity_token: String
        public var role_arn: String
        /// The metadata service answers as version 1 only: the token's PUT is 405.
        public var imds_v1_only = false

        public init(accessKeyID: String, secretAccessKey: String, sessionToken: String, expiresIn seconds: TimeInterval,
                    authorization: String? = nil, webIdentityToken: String = "eyJhbGciOiJSUzI1NiJ9.osprey.test", roleARN: String = "arn:aws:iam::123456789012:role/osprey") {
            access_key_id = accessKeyID
            secret_access_key = secretAccessKey
            session_token = sessionToken
            expiration = Date(timeIntervalSinceNow: seconds).ISO8601Format()
            self.authorization = authorization
            web_identity_token = webIdentityToken
            role_arn = roleARN
        }
    }

    public var url: String { "http://127.0.0.1:\(server.port)" }
    private let server: SpawnedServer
    private let stateFile: URL

    public init(_ state: State) throws {
        stateFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-aws-endpoints-\(UUID().uuidString).json")
        try JSONEncoder().encode(state).write(to: stateFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/aws_endpoint_fakes.py").path
        server = try SpawnedServer.onFreePort(startingWithin: 30) { [stateFile] in ["/usr/bin/env", "python3", script, "\($0)", stateFile.path] }
    }

    /// Changes what the endpoints hand out from the next request on.
    public func set(_ state: State) throws { try JSONEncoder().encode(state).write(to: stateFile, options: .atomic) }

    /// Answers given so far: `imds`, `ecs`, `sts`, `s3 redirected`, `s3 answered`, `s3 heads`.
    public func hits() throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: try CurlGet.run(url + "/__hits").body)
    }

    public func stop() {
        server.end(SIGTERM)
        try? FileManager.default.removeItem(at: stateFile)
    }
}
