import Foundation
import Osprey
@_spi(Parsing) import OspreyNetwork
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `local://` and `s3://` sources: files under a root folder, and objects in a
/// real S3 API on loopback (moto) fetched with signed requests.
@Suite("imgproxy's local and S3 sources", .serialized, .timeLimit(.minutes(3 * Sanitizer.timeScale)))
struct ImgproxySourcesTests {
    typealias Spec = ServerProcessTests.Spec

    @Test func localFilesAreServedFromTheirRootAndNoFurther() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-local-\(UUID().uuidString)")
        let root = folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("photos"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        try photo.write(to: root.appendingPathComponent("photos/a b.jpg"))
        try photo.write(to: folder.appendingPathComponent("outside.jpg"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.jpg"),
                                                   withDestinationURL: folder.appendingPathComponent("outside.jpg"))
        let harness = try ServerUnderTest { configuration in
            configuration.localRoot = root
            configuration.developmentErrors = true  // the reasons are checked below
            configuration.sources = SourcePolicy(allowedPrefixes: ["local://"])
        }
        defer { harness.stop() }
        let paths = try harness.paths(["local:///photos/a%20b.jpg", "local:///../outside.jpg", "local:///link.jpg", "local:///missing.jpg"]
            .map { Spec(url: $0, width: 64, extension_: "jpg") })
        let got = try await harness.fetch(paths)
        #expect(got.map(\.status) == [200, 404, 404, 404], "imgproxy's statuses: \(got.map(\.text))")
        #expect(try ServerProcessTests.size(got[0].body).0 == 64)
        #expect(got[1].text.contains("outside the local root") && got[2].text.contains("outside the local root"))
        let file = root.appendingPathComponent("photos/a b.jpg")
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        let lastModified = HTTPDate.string(from: modified)
        #expect(got[0].header("last-modified") == lastModified.lowercased())
        let unchanged = try await harness.fetch([(paths[0], ["If-Modified-Since: \(lastModified)"])])
        #expect(unchanged[0].status == 304)
        // A file changed in place is a new answer: its size and time are in the image's key.
        try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")).write(to: file)
        let later = try await harness.fetch([paths[0]])
        let changed = try ServerProcessTests.size(later[0].body)
        #expect(later[0].status == 200 && later[0].body != got[0].body && changed == (32, 32))
    }

    @Test func s3ObjectsAreFetchedWithSignedRequests() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let s3 = try MotoS3(bucket: "photos", objects: ["2026/jolla.jpg": photo])
        defer { s3.stop() }
        let endpoint = try #require(URL(string: s3.endpoint))
        func harness(secret: String) throws -> ServerUnderTest {
            try ServerUnderTest { configuration in
                configuration.developmentErrors = true  // the store's answers are checked below
                configuration.s3Store = try! S3DataLoader.Store(endpoint: endpoint, signing: AWSSigning(
                    region: "us-east-1", accessKeyID: s3.accessKeyID, secretAccessKey: secret))
                configuration.sources = SourcePolicy(allowedPrefixes: ["s3://photos/"])
            }
        }
        let paths = try ServerProcessTests.paths(["s3://photos/2026/jolla.jpg", "s3://photos/2026/missing.jpg", "s3://other/jolla.jpg"]
            .map { Spec(url: $0, width: 64, extension_: "jpg") })
        let signed = try harness(secret: s3.secretAccessKey)
        let got = try await signed.fetch(paths)
        signed.stop()
        try #require(got.map(\.status) == [200, 404, 404], "\(got.map(\.text))")
        #expect(try ServerProcessTests.size(got[0].body).0 == 64)
        #expect(got[1].text.contains("HTTP 404"), "a missing object is not found, as imgproxy answers: \(got[1].text)")
        let wrong = try harness(secret: "not-the-secret")
        let refused = try await wrong.fetch([paths[0]])
        wrong.stop()
        #expect(refused[0].status == 403 && refused[0].text.contains("403"), "a wrong credential: the store's 403 passed on, as imgproxy does: \(refused[0].text)")
    }
}
