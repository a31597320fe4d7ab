import Foundation
import Osprey
@_spi(Parsing) import OspreyNetwork
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `local://` and `s3://` sources: files under a root folder, and objects in a
/// real S3 API on loopback (moto) fetched with signed requests.
@Suite("imgproxy's local and S3 sources", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
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
        // imgproxy v4's bucket lists: checked before anything is asked of the store.
        for buckets in [(allowed: Set(["archive"]), denied: Set<String>()), (allowed: Set(["photos"]), denied: Set(["photos"]))] {
            let listed = try ServerUnderTest { configuration in
                configuration.developmentErrors = true
                configuration.s3Store = try! S3DataLoader.Store(endpoint: endpoint, signing: AWSSigning(
                    region: "us-east-1", accessKeyID: s3.accessKeyID, secretAccessKey: s3.secretAccessKey))
                (configuration.s3AllowedBuckets, configuration.s3DeniedBuckets) = buckets
            }
            let answer = try await listed.fetch([paths[0]])
            listed.stop()
            #expect(answer[0].status == 404 && answer[0].text.contains("not under an allowed origin"), "\(buckets): \(answer[0].text)")
        }
    }

    /// A `local://` path is decoded once, and the path the allow-list checks is the one opened:
    /// encodings of `/` and `.` cannot lead from an allowed folder to another.
    @Test func theLocalAllowListChecksThePathThatIsOpened() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-local-\(UUID().uuidString)")
        for folder in ["public", "private", "private/%2e%2e/public"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png"))
        for file in ["public/ok.png", "private/secret.png", "private/%2e%2e/public/secret.png"] {
            try photo.write(to: root.appendingPathComponent(file))
        }
        // A link inside the root from the allowed folder to another: the file opened is checked.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("public/link.png"),
                                                   withDestinationURL: root.appendingPathComponent("private/secret.png"))
        let harness = try ServerUnderTest { configuration in
            configuration.localRoot = root
            configuration.sources = SourcePolicy(allowedPrefixes: ["local:///public/"])
        }
        defer { harness.stop() }
        let keys = harness.configuration.service.signingKeys
        let escapes = ["..%252fprivate%252fsecret.png", "..%252Fprivate%252Fsecret.png", "%252e%252e%252fprivate%252fsecret.png",
                       "..%2fprivate%2fsecret.png", "%2e%2e/private/secret.png", "link.png"]
        var paths = escapes.map { keys.signed("/plain/local:///public/" + $0) }
        // A folder literally named `%2e%2e` is a name, not a way up: the check must not read it as one.
        paths.append(keys.signed("/plain/local:///private/%252e%252e/public/secret.png"))
        paths += try harness.paths(["local:///public/..%2fprivate%2fsecret.png", "local:///public/ok.png"].map { Spec(url: $0, width: 8) })
        let got = try await harness.fetch(paths)
        #expect(got.dropLast().allSatisfy { $0.status == 404 }, "\(zip(paths, got.map(\.status)).map { "\($0.0) \($0.1)" })")
        #expect(got.last?.status == 200)
    }
}
