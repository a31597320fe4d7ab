import Foundation
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// Which source the chain takes, read from variables and shared files only: nothing is fetched.
@Suite("AWS credential chain: the source chosen")
struct AWSCredentialChainTests {
    /// A HOME of its own with `~/.aws/config` and `~/.aws/credentials` as given.
    static func home(config: String = "", credentials: String = "") throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        try config.write(to: home.appendingPathComponent(".aws/config"), atomically: true, encoding: .utf8)
        try credentials.write(to: home.appendingPathComponent(".aws/credentials"), atomically: true, encoding: .utf8)
        return home.path
    }

    @Test func sharedFilesAreReadAsTheSDKsReadThem() {
        let config = AWSSharedConfig(config: """
            # a comment
            [default]
            region = eu-west-1
            [profile dev]
            role_arn = arn:aws:iam::1:role/dev   ; the role
            source_profile = default
            s3 =
              max_concurrent_requests = 20
            [sso-session corp]
            sso_region = us-east-1
            """, credentials: """
            [default]
            aws_access_key_id = AKIDDEFAULT
            aws_secret_access_key = secret/with+chars=
            [dev]
            region = us-east-2
            """)
        #expect(config.profiles["default"] == ["region": "eu-west-1", "aws_access_key_id": "AKIDDEFAULT", "aws_secret_access_key": "secret/with+chars="])
        #expect(config.profiles["dev"] == ["role_arn": "arn:aws:iam::1:role/dev", "source_profile": "default", "s3": "", "region": "us-east-2"],
                "the credentials file wins; nested lines and inline comments skipped")
        #expect(config.profiles["corp"] == nil && config.profiles["sso-session corp"] == nil)
    }

    @Test func theFirstSourceInTheSDKsOrderIsTaken() throws {
        let keys = ["AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret"]
        let webIdentity = ["AWS_WEB_IDENTITY_TOKEN_FILE": "/var/run/token", "AWS_ROLE_ARN": "arn:aws:iam::1:role/web"]
        let home = try Self.home(credentials: "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = file-secret\n")
        let container = ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": "/v2/credentials/abc"]
        let all = keys.merging(webIdentity) { $1 }.merging(container) { $1 }.merging(["HOME": home]) { $1 }

        #expect(try AWSCredentialSource.resolve(all) == .fixed(AWSCredentials(accessKeyID: "AKIDENV", secretAccessKey: "env-secret"), from: "the environment"))
        var rest = all.filter { !keys.keys.contains($0.key) }
        guard case .webIdentity("/var/run/token", "arn:aws:iam::1:role/web", _) = try AWSCredentialSource.resolve(rest) else {
            Issue.record("web identity second")
            return
        }
        rest = rest.filter { !webIdentity.keys.contains($0.key) }
        #expect(try AWSCredentialSource.resolve(rest) == .fixed(AWSCredentials(accessKeyID: "AKIDFILE", secretAccessKey: "file-secret"), from: "profile default"))
        rest["HOME"] = try Self.home()
        #expect(try AWSCredentialSource.resolve(rest) == .container(url: URL(string: "http://169.254.170.2/v2/credentials/abc")!, authorization: nil, authorizationFile: nil))
        rest = ["HOME": rest["HOME"]!]
        #expect(try AWSCredentialSource.resolve(rest) == .instanceMetadata(endpoint: URL(string: "http://169.254.169.254")!))
        #expect(try AWSCredentialSource.resolve(rest.merging(["AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE": "IPv6"]) { $1 })
                == .instanceMetadata(endpoint: URL(string: "http://[fd00:ec2::254]")!))
        #expect(throws: AWSCredentialError.noCredentials) { try AWSCredentialSource.resolve(rest.merging(["AWS_EC2_METADATA_DISABLED": "true"]) { $1 }) }
    }

    @Test func profilesAssumeRolesFromOtherProfilesOrNamedSources() throws {
        let home = try Self.home(config: """
            [profile base]
            aws_access_key_id = AKIDBASE
            aws_secret_access_key = base-secret
            [profile reader]
            role_arn = arn:aws:iam::1:role/reader
            source_profile = base
            external_id = ext-1
            role_session_name = osprey-session
            [profile instance]
            role_arn = arn:aws:iam::1:role/instance
            credential_source = Ec2InstanceMetadata
            [profile eks]
            role_arn = arn:aws:iam::1:role/eks
            web_identity_token_file = /var/run/eks/token
            [profile loop-a]
            role_arn = arn:aws:iam::1:role/a
            source_profile = loop-b
            [profile loop-b]
            role_arn = arn:aws:iam::1:role/b
            source_profile = loop-a
            [profile sso]
            sso_session = corp
            [profile tool]
            credential_process = /usr/local/bin/issue-credentials --json
            """)
        func resolve(_ profile: String) throws -> AWSCredentialSource { try AWSCredentialSource.resolve(["HOME": home, "AWS_PROFILE": profile]) }
        #expect(try resolve("reader") == .assumeRole(roleARN: "arn:aws:iam::1:role/reader", externalID: "ext-1", sessionName: "osprey-session",
                                                     base: .fixed(AWSCredentials(accessKeyID: "AKIDBASE", secretAccessKey: "base-secret"), from: "profile base")))
        guard case .assumeRole(_, nil, _, .instanceMetadata) = try resolve("instance") else {
            Issue.record("credential_source Ec2InstanceMetadata")
            return
        }
        guard case .webIdentity("/var/run/eks/token", "arn:aws:iam::1:role/eks", _) = try resolve("eks") else {
            Issue.record("web_identity_token_file")
            return
        }
        #expect(try resolve("tool") == .process(command: "/usr/local/bin/issue-credentials --json"))
        #expect(throws: AWSCredentialError.self) { try resolve("loop-a") }
        #expect(throws: AWSCredentialError.self) { try resolve("sso") }
        #expect(throws: AWSCredentialError.profileNotFound("missing")) { try resolve("missing") }
    }

    @Test func aContainerURLIsTakenOnlyOverHTTPSOrOnTheAgentsAddresses() throws {
        let home = try Self.home()
        func full(_ url: String) throws -> AWSCredentialSource {
            try AWSCredentialSource.resolve(["HOME": home, "AWS_CONTAINER_CREDENTIALS_FULL_URI": url, "AWS_CONTAINER_AUTHORIZATION_TOKEN": "t"])
        }
        #expect(try full("http://127.0.0.1:51679/creds") == .container(url: URL(string: "http://127.0.0.1:51679/creds")!, authorization: "t", authorizationFile: nil))
        #expect(try full("http://169.254.170.23/v1/credentials") != .instanceMetadata(endpoint: URL(string: "http://169.254.169.254")!))
        #expect(try full("https://credentials.example/c") == .container(url: URL(string: "https://credentials.example/c")!, authorization: "t", authorizationFile: nil))
        #expect(throws: AWSCredentialError.self) { try full("http://credentials.example/c") }
        #expect(throws: AWSCredentialError.self) { try full("http://10.0.0.8/c") }
    }

    @Test func endpointsFollowTheServiceVariableThenTheGlobalOne() {
        let endpoints = AWSEndpoints(environment: ["AWS_ENDPOINT_URL": "http://127.0.0.1:4566", "AWS_ENDPOINT_URL_STS": "http://127.0.0.1:9000"])
        #expect(endpoints.url(.sts, region: "eu-west-1").absoluteString == "http://127.0.0.1:9000")
        #expect(endpoints.url(.s3, region: "eu-west-1").absoluteString == "http://127.0.0.1:4566")
        let ignored = AWSEndpoints(environment: endpoints.environment.merging(["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"]) { $1 })
        #expect(ignored.url(.secretsManager, region: "eu-west-1").absoluteString == "https://secretsmanager.eu-west-1.amazonaws.com")
    }

    @Test func answersAreReadWithTheirTimes() throws {
        let json = Data(#"{"Code":"Success","AccessKeyId":"ASIA1","SecretAccessKey":"s","Token":"t","Expiration":"2026-11-28T13:00:00Z"}"#.utf8)
        let credentials = try AWSAnswer.credentials(json: json, from: "test")
        #expect(credentials == AWSCredentials(accessKeyID: "ASIA1", secretAccessKey: "s", sessionToken: "t",
                                              expiration: Date(timeIntervalSince1970: 1_795_870_800)))
        #expect(AWSAnswer.date("2026-11-28T13:00:00.123Z") != nil)
        #expect(throws: AWSCredentialError.self) { try AWSAnswer.credentials(json: Data(#"{"Code":"Failure","Message":"no role"}"#.utf8), from: "test") }
        #expect(AWSAnswer.xmlValue("SessionToken", in: "<a><SessionToken>x&amp;y</SessionToken></a>") == "x&y")
    }
}
