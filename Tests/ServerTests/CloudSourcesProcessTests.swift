import Foundation
import OspreyTesting
import Testing

/// osprey-server started as imgproxy deployments on AWS start it: `IMGPROXY_USE_S3` with no
/// keys in the environment, the credentials coming from where AWS's SDKs find them.
@Suite("osprey-server: S3 as AWS runs it", .serialized, .timeLimit(.minutes(Sanitizer.scaled(4))))
struct CloudSourcesProcessTests {
    typealias Abuse = ServerProcessTests.Abuse

    @Test func s3StartsWithEachCredentialSourceAndAnswers() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let s3 = try MotoS3(bucket: "photos", objects: ["2026/jolla.jpg": photo])
        let role = s3.roleCredentials
        let endpoints = try AWSEndpointFakes(.init(accessKeyID: role.accessKeyID, secretAccessKey: role.secretAccessKey,
                                                         sessionToken: role.sessionToken, expiresIn: 3600))
        defer { s3.stop(); endpoints.stop() }
        let token = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-web-identity-\(UUID().uuidString)")
        try "eyJhbGciOiJSUzI1NiJ9.osprey.test".write(to: token, atomically: true, encoding: .utf8)
        let home = try AWSCredentialChainTestsHome.make()
        let common = ["IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": s3.endpoint, "IMGPROXY_S3_REGION": "us-east-1", "HOME": home,
                      "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_EC2_METADATA_DISABLED": "true"]
        let deployments: [(String, [String: String])] = [
            ("EKS web identity", ["AWS_WEB_IDENTITY_TOKEN_FILE": token.path, "AWS_ROLE_ARN": "arn:aws:iam::123456789012:role/osprey",
                                  "AWS_ENDPOINT_URL_STS": endpoints.url]),
            ("ECS task role", ["AWS_CONTAINER_CREDENTIALS_FULL_URI": endpoints.url + "/v2/credentials/task"]),
            ("EC2 instance profile", ["AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": endpoints.url]),
            ("keys and IMGPROXY_S3_ASSUME_ROLE_ARN", ["AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey,
                                                     "IMGPROXY_S3_ASSUME_ROLE_ARN": s3.roleARN, "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID": "osprey",
                                                     "AWS_ENDPOINT_URL_STS": s3.endpoint]),
        ]
        for (name, variables) in deployments {
            let server = try await Abuse.server([], environment: common.merging(variables) { $1 })
            let answer = try await server.fetch(Abuse.path("rs:fit:64:64", "s3://photos/2026/jolla.jpg"))
            #expect(answer.status == 200 && (try? Abuse.size(answer.body)) == 64, "\(name): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            #expect(server.stop() == 0, "\(name)")
        }
        #expect(try endpoints.hits().filter { !$0.key.hasPrefix("s3") && $0.value > 0 } == ["sts": 1, "ecs": 1, "imds": 1])
    }

    @Test func keysKeptInSecretsManagerAndSSMStartTheServer() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let s3 = try MotoS3(bucket: "photos", objects: ["2026/jolla.jpg": photo])
        defer { s3.stop() }
        try s3.putSecret("osprey/prod", "IMGPROXY_KEY=\(ServerProcessTests.key)\nIMGPROXY_SALT=not-the-salt\n")
        try s3.putParameter("/osprey/prod/IMGPROXY_SALT", ServerProcessTests.salt)
        try s3.putParameter("/osprey/prod/IMGPROXY_S3_ENDPOINT", s3.endpoint)
        let server = try await ServerProcess.launch(arguments: ["--development-errors"], environment: [
            "HOME": try AWSCredentialChainTestsHome.make(), "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": s3.endpoint,
            "AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey, "IMGPROXY_USE_S3": "true",
            "IMGPROXY_ENV_AWS_SECRET_ID": "osprey/prod", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/osprey/prod",
        ])
        defer { #expect(server.stop() == 0) }
        let path = try ServerProcessTests.paths([.init(url: "s3://photos/2026/jolla.jpg", width: 64, extension_: "jpg")])[0]
        let answer = try await server.fetch(path)
        #expect(answer.status == 200 && (try? Abuse.size(answer.body)) == 64, "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        #expect(try await server.fetch(Abuse.path("rs:fit:64:64", "s3://photos/2026/jolla.jpg")).status == 403, "the secret's key is in force")
    }

    @Test func gcsStartsWithAnEmulatorOrAServiceAccountKeyAndAnswers() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let emulator = try GCSEmulator(bucket: "photos", objects: ["2026/jolla.jpg": photo])
        let fakes = try GCPEndpointFakes(object: photo)
        defer { emulator.stop(); fakes.stop() }
        let deployments: [(String, [String: String])] = [
            ("an emulator", ["IMGPROXY_USE_GCS": "true", "STORAGE_EMULATOR_HOST": emulator.host]),
            ("a service account key", ["IMGPROXY_GCS_KEY": fakes.serviceAccountKey, "IMGPROXY_GCS_ENDPOINT": fakes.url + "/storage/v1"]),
        ]
        for (name, variables) in deployments {
            let server = try await Abuse.server([], environment: variables)
            let answer = try await server.fetch(Abuse.path("rs:fit:64:64", "gs://photos/2026/jolla.jpg"))
            #expect(answer.status == 200 && (try? Abuse.size(answer.body)) == 64, "\(name): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            #expect(server.stop() == 0, "\(name)")
        }
        let listed = try await Abuse.server([], environment: ["IMGPROXY_USE_GCS": "true", "STORAGE_EMULATOR_HOST": emulator.host,
                                                              "IMGPROXY_GCS_ALLOWED_BUCKETS": "archive"])
        #expect(try await listed.fetch(Abuse.path("rs:fit:64:64", "gs://photos/2026/jolla.jpg")).status == 404, "imgproxy v4's bucket list")
        #expect(listed.stop() == 0)
        #expect(try fakes.hits()["oauth"] == 1)
    }

    @Test func azureBlobStorageStartsWithTheAccountKeyOrAManagedIdentityAndAnswers() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let fakes = try AzureEndpointFakes(object: photo)
        defer { fakes.stop() }
        let common = ["IMGPROXY_USE_ABS": "true", "IMGPROXY_ABS_NAME": AzureEndpointFakes.account, "IMGPROXY_ABS_ENDPOINT": fakes.endpoint]
        for variables in [["IMGPROXY_ABS_KEY": AzureEndpointFakes.accountKey], ["AZURE_IMDS_ENDPOINT": fakes.url]] {
            let server = try await Abuse.server([], environment: common.merging(variables) { $1 })
            let answer = try await server.fetch(Abuse.path("rs:fit:64:64", "abs://photos/2026/jolla.jpg"))
            #expect(answer.status == 200 && (try? Abuse.size(answer.body)) == 64, "\(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            #expect(server.stop() == 0)
        }
        #expect(try fakes.hits()["shared key"] == 1 && fakes.hits()["imds"] == 1)
    }

    @Test func aNamedProfileThatDoesNotExistStopsTheStartWithItsName() async throws {
        let home = try AWSCredentialChainTestsHome.make()
        let outcome = try ChildProcess.run(ServerProcess.buildFolder.appendingPathComponent("osprey-server").path, ["health"], environment: [
            "IMGPROXY_USE_S3": "true", "HOME": home, "AWS_PROFILE": "images-prod", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
        ])
        #expect(outcome.status != 0 && outcome.output.contains("no AWS profile 'images-prod'"), "\(outcome.output)")
    }
}

/// A HOME with empty shared AWS files, so that the machine's own never count.
enum AWSCredentialChainTestsHome {
    static func make() throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-aws-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        return home.path
    }
}
