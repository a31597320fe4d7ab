import Foundation
@testable import OspreyServer
import OspreyTesting
import Testing

@Suite("imgproxy's environment sources")
struct EnvironmentSourcesTests {
    /// The examples of imgproxy's "Environment file syntax", each as documented.
    @Test func envFilesReadAsImgproxyDocumentsThem() throws {
        let text = #"""
            # a comment

            BARE=VAL
            DOUBLE="VAL"
            SINGLE='VAL'
            BRACES=${OTHER_VAR}
            DOLLAR=$OTHER_VAR
            QUOTED_DOLLAR="$OTHER_VAR"
            LITERAL='$OTHER_VAR'
            LITERAL_BRACES='${OTHER_VAR}'
            JSON="{\"hello\": \"json\"}"
            SLASH="some\\value"
            NEWLINE="some\nvalue"
            export EXPORTED=yes
            EARLIER=$BARE-and-more # a trailing comment
            MULTI="first
            second"
            """#
        let variables = try EnvironmentFile.parse(text, source: "test.env", environment: ["OTHER_VAR": "other"])
        #expect(variables == [
            "BARE": "VAL", "DOUBLE": "VAL", "SINGLE": "VAL", "BRACES": "other", "DOLLAR": "other", "QUOTED_DOLLAR": "other",
            "LITERAL": "$OTHER_VAR", "LITERAL_BRACES": "${OTHER_VAR}", "JSON": #"{"hello": "json"}"#, "SLASH": #"some\value"#,
            "NEWLINE": "some\nvalue", "EXPORTED": "yes", "EARLIER": "VAL-and-more", "MULTI": "first\nsecond",
        ])
        #expect(throws: ServerSettingError.self) { try EnvironmentFile.parse("JUST A LINE\n", source: "bad.env", environment: [:]) }
        #expect(throws: ServerSettingError.self) { try EnvironmentFile.parse("OPEN=\"never closed\n", source: "bad.env", environment: [:]) }
    }

    /// A secret, SSM parameters and a file, each over the one before, as imgproxy loads them.
    @Test func aSecretParametersAndAFileAreReadInImgproxysOrder() async throws {
        let s3 = try MotoS3(bucket: "unused", objects: [:])
        defer { s3.stop() }
        try s3.putSecret("osprey/prod", "IMGPROXY_KEY=aa11\nIMGPROXY_SALT=bb22\nIMGPROXY_QUALITY=70\n")
        try s3.putParameter("/osprey/prod/IMGPROXY_QUALITY", "75")
        try s3.putParameter("/osprey/prod/IMGPROXY_CLOUD_WATCH/NAMESPACE", "images")
        try s3.putParameter("/osprey/staging/IMGPROXY_QUALITY", "10")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-\(UUID().uuidString).env")
        try "IMGPROXY_SALT=cc33\nIMGPROXY_MAX_SRC_RESOLUTION=\"${IMGPROXY_QUALITY}\"\n".write(to: file, atomically: true, encoding: .utf8)
        let base = ["HOME": try AWSCredentialChainTestsHome.make(), "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey,
                    "AWS_ENDPOINT_URL": s3.endpoint, "IMGPROXY_ENV_AWS_SECRET_ID": "osprey/prod", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH": "/osprey/prod",
                    "IMGPROXY_ENV_LOCAL_FILE_PATH": file.path, "IMGPROXY_QUALITY": "90"]
        let loaded = try await EnvironmentSources.load(base)
        #expect(loaded["IMGPROXY_KEY"] == "aa11", "from the secret")
        #expect(loaded["IMGPROXY_QUALITY"] == "75", "SSM over the secret over the process")
        #expect(loaded["IMGPROXY_CLOUD_WATCH_NAMESPACE"] == "images" && loaded["IMGPROXY_SALT"] == "cc33" && loaded["IMGPROXY_MAX_SRC_RESOLUTION"] == "75")

        var wrong = base
        wrong["IMGPROXY_ENV_AWS_SECRET_ID"] = "osprey/missing"
        await #expect(throws: ServerSettingError.self) { try await EnvironmentSources.load(wrong) }
        wrong = base
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        await #expect(throws: ServerSettingError.self, "the calls are signed") { try await EnvironmentSources.load(wrong) }
    }

    /// A Google Secret Manager secret, read with a service account's key (its token asked
    /// for the cloud-platform scope), before the local file.
    @Test func aGoogleCloudSecretIsReadWithTheKeyGiven() async throws {
        let fakes = try GCPEndpointFakes(object: Data(), secrets: ["projects/images/secrets/osprey-env/versions/latest": "IMGPROXY_KEY=dd44\nIMGPROXY_TTL=60\n",
                                                                   "projects/images/secrets/osprey-env/versions/3": "IMGPROXY_KEY=ee55\n"])
        defer { fakes.stop() }
        var environment = ["IMGPROXY_ENV_GCP_SECRET_ID": "osprey-env", "IMGPROXY_ENV_GCP_SECRET_PROJECT_ID": "images",
                           "IMGPROXY_ENV_GCP_KEY": fakes.serviceAccountKey, "OSPREY_GCP_SECRET_MANAGER_ENDPOINT": fakes.url]
        let loaded = try await EnvironmentSources.load(environment)
        #expect(loaded["IMGPROXY_KEY"] == "dd44" && loaded["IMGPROXY_TTL"] == "60")
        environment["IMGPROXY_ENV_GCP_SECRET_VERSION_ID"] = "3"
        #expect(try await EnvironmentSources.load(environment)["IMGPROXY_KEY"] == "ee55")
        environment["IMGPROXY_ENV_GCP_SECRET_ID"] = "missing"
        await #expect(throws: ServerSettingError.self) { try await EnvironmentSources.load(environment) }
        #expect(try fakes.hits()["secrets"] == 2)
    }
}
