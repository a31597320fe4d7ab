import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// `gs://` sources against a Cloud Storage emulator (`gcp-storage-emulator`) and Google's
/// token services as published (`GCPEndpointFakes`: the assertion's RS256 signature checked).
@Suite("GCSDataLoader", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct GCSDataLoaderTests {
    static let photo = Data("the object's bytes".utf8)

    static func load(_ source: String, _ store: GCSDataLoader.Store) async throws -> Data {
        try await GCSDataLoader(store: store, network: CurlDataLoader()).loadData(for: DataRequest(url: URL(string: source)!)).data
    }

    @Test func objectsAreReadFromTheJSONAPIByBucketAndName() async throws {
        let emulator = try GCSEmulator(bucket: "photos", objects: ["a.jpg": Self.photo, "2026/a b+c.jpg": Data("nested".utf8)])
        defer { emulator.stop() }
        let environment = ["STORAGE_EMULATOR_HOST": emulator.host]
        let credentials = try GCSCredentials(environment: environment)
        #expect(credentials.sourceName == "no one (an emulator)")
        let store = try GCSDataLoader.Store(credentials: credentials, environment: environment)
        #expect(try await Self.load("gs://photos/a.jpg", store) == Self.photo)
        #expect(try await Self.load("gs://photos/2026/a%20b+c.jpg", store) == Data("nested".utf8), "the name encoded whole, its / too")
        await #expect(throws: DataLoadingError.self) { try await Self.load("gs://photos/missing.jpg", store) }
        await #expect(throws: DataLoadingError.self, "a bucket and an object, nothing else") { try await Self.load("gs://photos/../x.jpg", store) }
    }

    @Test func aServiceAccountsSignedAssertionIsExchangedForATokenOnce() async throws {
        let fakes = try GCPEndpointFakes(object: Self.photo)
        defer { fakes.stop() }
        let store = try GCSDataLoader.Store(endpoint: URL(string: fakes.url + "/storage/v1")!, credentials: try GCSCredentials(key: fakes.serviceAccountKey, environment: [:]))
        #expect(try await Self.load("gs://photos/a.jpg", store) == Self.photo)
        #expect(try await Self.load("gs://photos/b.jpg", store) == Self.photo)
        #expect(try fakes.hits() == ["oauth": 1, "metadata": 0, "storage": 2, "secrets": 0], "one token, kept")

        // Another key for the same account: its signature does not verify.
        let other = try GCPEndpointFakes(object: Self.photo)
        defer { other.stop() }
        var key = try #require(try JSONSerialization.jsonObject(with: Data(other.serviceAccountKey.utf8)) as? [String: String])
        key["token_uri"] = fakes.url + "/token"
        let forged = String(decoding: try JSONSerialization.data(withJSONObject: key), as: UTF8.self)
        let refused = try GCSDataLoader.Store(endpoint: URL(string: fakes.url + "/storage/v1")!, credentials: try GCSCredentials(key: forged, environment: [:]))
        await #expect(throws: GCSCredentialError.self) { try await Self.load("gs://photos/a.jpg", refused) }
        #expect(throws: GCSCredentialError.self, "imgproxy takes service account keys only") {
            try GCSCredentials(key: #"{"type":"authorized_user","client_id":"x","refresh_token":"y"}"#, environment: [:])
        }
    }

    @Test func onGoogleCloudTheMetadataServerGivesTheToken() async throws {
        let fakes = try GCPEndpointFakes(object: Self.photo)
        defer { fakes.stop() }
        let credentials = try GCSCredentials(environment: ["GCE_METADATA_HOST": String(fakes.url.dropFirst("http://".count))])
        let store = try GCSDataLoader.Store(endpoint: URL(string: fakes.url + "/storage/v1")!, credentials: credentials, environment: [:])
        #expect(try await Self.load("gs://photos/a.jpg", store) == Self.photo)
        #expect(try fakes.hits()["metadata"] == 1)
    }
}
