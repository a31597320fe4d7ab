import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// Each source of the chain against a real S3 API (moto, signatures checked) and AWS's
/// credential endpoints as published (`AWSEndpointFakes`), or moto's own STS.
@Suite("AWS credential chain: each source, end to end", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct AWSCredentialSourcesTests {
    static let photo = Data("the object's bytes".utf8)

    /// moto with `photos/a.jpg`, endpoints handing out the role's temporary credentials, and a
    /// HOME without shared files.
    static func world(expiresIn seconds: TimeInterval = 3600, authorization: String? = nil) throws -> (MotoS3, AWSEndpointFakes, [String: String]) {
        let s3 = try MotoS3(bucket: "photos", objects: ["a.jpg": photo])
        let role = s3.roleCredentials
        let endpoints = try AWSEndpointFakes(.init(accessKeyID: role.accessKeyID, secretAccessKey: role.secretAccessKey,
                                                         sessionToken: role.sessionToken, expiresIn: seconds, authorization: authorization))
        return (s3, endpoints, ["HOME": try AWSCredentialChainTests.home(), "AWS_REGION": "us-east-1"])
    }

    static func load(_ source: String, from s3: MotoS3, with chain: AWSCredentialChain) async throws -> Data {
        let network = CurlDataLoader()
        let store = try S3DataLoader.Store(endpoint: URL(string: s3.endpoint)!, region: "us-east-1", credentials: chain)
        return try await S3DataLoader(store: store, network: network).loadData(for: DataRequest(url: URL(string: source)!)).data
    }

    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-token-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aWebIdentityIsExchangedAtSTSForTheRolesCredentials() async throws {
        let (s3, endpoints, base) = try Self.world()
        defer { s3.stop(); endpoints.stop() }
        var environment = base.merging(["AWS_WEB_IDENTITY_TOKEN_FILE": try Self.file("eyJhbGciOiJSUzI1NiJ9.osprey.test\n"),
                                        "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/osprey", "AWS_ENDPOINT_URL_STS": endpoints.url]) { $1 }
        let chain = try AWSCredentialChain(environment: environment)
        #expect(chain.sourceName == "web identity for arn:aws:iam::123456789012:role/osprey")
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: chain) == Self.photo)
        #expect(try endpoints.hits()["sts"] == 1)

        environment["AWS_WEB_IDENTITY_TOKEN_FILE"] = try Self.file("another.token")
        await #expect(throws: AWSCredentialError.self) { try await AWSCredentialChain(environment: environment).credentials() }
    }

    @Test func aContainersEndpointGivesCredentialsWithItsAuthorizationToken() async throws {
        let (s3, endpoints, base) = try Self.world(authorization: "Bearer pod-identity-token")
        defer { s3.stop(); endpoints.stop() }
        var environment = base.merging(["AWS_CONTAINER_CREDENTIALS_FULL_URI": endpoints.url + "/v2/credentials/task",
                                        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": try Self.file("Bearer pod-identity-token\n")]) { $1 }
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: try AWSCredentialChain(environment: environment)) == Self.photo)

        environment["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"] = try Self.file("Bearer stolen")
        await #expect(throws: AWSCredentialError.self) { try await AWSCredentialChain(environment: environment).credentials() }
    }

    @Test func theInstanceMetadataServiceIsAskedWithASessionToken() async throws {
        let (s3, endpoints, base) = try Self.world()
        defer { s3.stop(); endpoints.stop() }
        let chain = try AWSCredentialChain(environment: base.merging(["AWS_EC2_METADATA_SERVICE_ENDPOINT": endpoints.url]) { $1 })
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: chain) == Self.photo)
        #expect(try endpoints.hits()["imds"] == 1, "the endpoint answers only with the PUT's token")
    }

    @Test func anSSOProfileTradesTheCachedTokenForItsRole() async throws {
        let (s3, endpoints, _) = try Self.world()
        defer { s3.stop(); endpoints.stop() }
        let home = try AWSCredentialChainTests.home(config: """
            [profile dev]
            sso_session = corp
            sso_account_id = 123456789012
            sso_role_name = ImageReader
            region = us-east-1

            [sso-session corp]
            sso_region = eu-west-1
            sso_start_url = https://corp.awsapps.com/start
            """)
        let cache = URL(fileURLWithPath: home).appendingPathComponent(".aws/sso/cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // The cache file's name is the SHA-1 of the session's name, as the CLI writes it.
        let tokenFile = cache.appendingPathComponent("\(AWSSingleSignOn.sha1Hex("corp")).json")
        #expect(tokenFile.lastPathComponent == "ee0bfd2552fbd840c02cc48b6e823320543c450f.json")
        func cacheToken(_ token: String, expiresIn seconds: TimeInterval) throws {
            let expires = Date(timeIntervalSinceNow: seconds).ISO8601Format()
            try Data(#"{"accessToken": "\#(token)", "expiresAt": "\#(expires)", "region": "eu-west-1"}"#.utf8).write(to: tokenFile)
        }
        let environment = ["HOME": home, "AWS_PROFILE": "dev", "AWS_ENDPOINT_URL_SSO": endpoints.url, "AWS_REGION": "us-east-1"]
        try cacheToken("sso-access-token", expiresIn: 3600)
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: try AWSCredentialChain(environment: environment)) == Self.photo)
        #expect(try endpoints.hits()["sso"] == 1)
        try cacheToken("sso-access-token", expiresIn: -60)
        await #expect(throws: AWSCredentialError.self, "an expired token asks for aws sso login") {
            try await AWSCredentialChain(environment: environment).credentials()
        }
        try cacheToken("another-token", expiresIn: 3600)
        await #expect(throws: AWSCredentialError.self) { try await AWSCredentialChain(environment: environment).credentials() }
        #expect(try endpoints.hits()["sso"] == 1)
    }

    @Test func aVersionOneMetadataServiceIsAskedWithoutATokenUnlessThatIsDisabled() async throws {
        let (s3, endpoints, base) = try Self.world()
        defer { s3.stop(); endpoints.stop() }
        let role = s3.roleCredentials
        var state = AWSEndpointFakes.State(accessKeyID: role.accessKeyID, secretAccessKey: role.secretAccessKey, sessionToken: role.sessionToken,
                                           expiresIn: 3600)
        state.imds_v1_only = true
        try endpoints.set(state)
        let environment = base.merging(["AWS_EC2_METADATA_SERVICE_ENDPOINT": endpoints.url]) { $1 }
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: try AWSCredentialChain(environment: environment)) == Self.photo)
        #expect(try endpoints.hits()["imds"] == 1)
        let disabled = try AWSCredentialChain(environment: environment.merging(["AWS_EC2_METADATA_V1_DISABLED": "true"]) { $1 })
        await #expect(throws: AWSCredentialError.self) { try await disabled.credentials() }
        #expect(try endpoints.hits()["imds"] == 1)
    }

    @Test func aRoleIsAssumedAtMotosSTSWithTheKeysFoundAndTheExternalID() async throws {
        let (s3, endpoints, base) = try Self.world()
        defer { s3.stop(); endpoints.stop() }
        var environment = base.merging(["AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey,
                                        "AWS_ENDPOINT_URL_STS": s3.endpoint]) { $1 }
        let role = AWSCredentialChain.RoleToAssume(arn: s3.roleARN, externalID: "osprey-external")
        let chain = try AWSCredentialChain(environment: environment, assuming: role)
        let credentials = try await chain.credentials()
        #expect(credentials.accessKeyID.hasPrefix("ASIA") && credentials.sessionToken != nil && credentials.expiration != nil)
        #expect(try await Self.load("s3://photos/a.jpg", from: s3, with: chain) == Self.photo)

        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        await #expect(throws: AWSCredentialError.self, "STS checks the call's signature") {
            try await AWSCredentialChain(environment: environment, assuming: role).credentials()
        }
    }

    @Test func credentialsAreFetchedOnceAndAgainBeforeTheyExpire() async throws {
        let (s3, endpoints, base) = try Self.world(expiresIn: 60)
        defer { s3.stop(); endpoints.stop() }
        let chain = try AWSCredentialChain(environment: base.merging(["AWS_CONTAINER_CREDENTIALS_FULL_URI": endpoints.url + "/v2/credentials/task"]) { $1 })
        _ = try await chain.credentials()
        _ = try await chain.credentials()
        #expect(try endpoints.hits()["ecs"] == 2, "a minute from expiry, each request renews them")

        let role = s3.roleCredentials
        try endpoints.set(.init(accessKeyID: role.accessKeyID, secretAccessKey: role.secretAccessKey, sessionToken: role.sessionToken, expiresIn: 3600))
        _ = try await chain.credentials()
        try await withThrowingTaskGroup(of: AWSCredentials.self) { group in
            for _ in 0..<20 { group.addTask { try await chain.credentials() } }
            for try await credentials in group { #expect(credentials.accessKeyID == role.accessKeyID) }
        }
        #expect(try endpoints.hits()["ecs"] == 3, "an hour from expiry, kept for every caller")
    }
}
