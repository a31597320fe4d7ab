import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// The `OspreyServer` module on its own: `ImageService` mounted in an app's router, with its
/// middleware, answering real HTTP requests from curl.
// Serialized: curl runs on a thread of its own while the app answers on the shared pool.
// The bound is a hang guard, widened under the sanitizers as every other one is.
@Suite("ImageService in an app's router", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImageServiceTests {
    @Test func anAppMountsTheRoutesUnderAPrefixBesideItsOwn() async throws {
        let harness = try ServerUnderTest()
        defer { harness.stop() }
        let paths = try harness.paths([.init(url: harness.source("photo.jpg"), width: 120, height: 90, extension_: "png"),
                                       .init(url: harness.source("photo.jpg"), key: nil, salt: nil, width: 64, height: 64),
                                       .init(url: harness.source("photo.jpg"), key: "0011", salt: "0011", width: 64, height: 64),
                                       .init(url: harness.source("photo.jpg"), height: 50, extension_: "png")])
        let router = Router()
        router.get("/hello") { _, _ in "the app's own route\n" }
        router.addImageRoutes(harness.service, at: "/images")
        try await ServerUnderTest.serving(router) { base in
            let image = try await CurlGet.fetch(base + "/images" + paths[0])
            #expect(image.status == 200 && image.header("content-type") == "image/png")
            let info = try ImageCodec().info(.data(image.body))
            #expect(max(info.width, info.height) == 120)
            #expect(try await CurlGet.fetch(base + "/hello").text == "the app's own route\n")
            #expect(try await CurlGet.fetch(base + paths[0]).status == 404, "only under the prefix")
            let unsigned = try await CurlGet.fetch(base + "/images" + paths[1])
            #expect(unsigned.status == 403 && unsigned.text == "Forbidden\n" && unsigned.header("x-request-id") != nil)
            #expect(try await CurlGet.fetch(base + "/images" + paths[2]).status == 403, "a wrong key")
            let unknownOption = harness.configuration.service.signingKeys.signed("/xyz:1/plain/http://a.example/b.jpg")
            #expect(try await CurlGet.fetch(base + "/images" + unknownOption).status == 404, "imgproxy's Invalid URL")
            let free = try ImageCodec().info(.data(try await CurlGet.fetch(base + "/images" + paths[3]).body))
            #expect(free.height == 50 && free.width > 50, "a free width follows from the height: \(free.width)x\(free.height)")
        }
    }

    @Test func validatorsVaryAndNotModified() async throws {
        let harness = try ServerUnderTest { $0.autoFormats = [.webp] }
        defer { harness.stop() }
        let paths = try harness.paths([.init(url: harness.source("photo.jpg"), width: 96, height: 96),
                                       .init(url: harness.source("photo.jpg"), width: 96, height: 96, extension_: "webp")])
        let router = Router()
        router.addImageRoutes(harness.service)
        try await ServerUnderTest.serving(router) { base in
            let negotiated = try await CurlGet.fetch(base + paths[0], headers: ["Accept: image/webp,*/*"])
            #expect(negotiated.header("content-type") == "image/webp" && negotiated.header("vary") == "accept")
            #expect(negotiated.header("cache-control") == "max-age=31536000, public")
            let named = try await CurlGet.fetch(base + paths[1])
            #expect(named.header("content-type") == "image/webp" && named.header("vary") == "accept", "imgproxy's Vary, wherever a format is automatic")
            let etag = try #require(named.etag)
            // The origin sends an ETag, so the answer's is weak; its strong form matches too.
            #expect(etag.hasPrefix("W/\""))
            for condition in [etag, "\"other\", \(etag)", String(etag.dropFirst(2)), "*"] {
                let again = try await CurlGet.fetch(base + paths[1], headers: ["If-None-Match: \(condition)"])
                #expect(again.status == 304 && again.body.isEmpty && again.etag == etag, "\(condition)")
            }
            #expect(try await CurlGet.fetch(base + paths[1], headers: ["If-None-Match: \"other\""]).status == 200)
        }
    }

    @Test func aRepeatedURLIsAnsweredAsKeptEvenAfterARestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-answers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try ServerUnderTest(cacheDirectory: folder)
        let paths = try first.paths([.init(url: first.source("photo.jpg"), width: 200, height: 150),
                                     .init(url: first.source("photo.jpg"), width: 120, height: 90)])
        let made = try await Self.fetching(first, paths[0], [nil, nil])
        first.stop(keepingOrigin: true)
        #expect(made[0].status == 200 && made[0].header("server-timing")?.hasPrefix("network;dur=") == true)
        #expect(made[1].body == made[0].body && made[1].header("server-timing")?.hasPrefix("answer-memory;") == true,
                "sent as kept, not encoded again")
        let tag = try #require(made[0].etag)
        #expect(made[1].etag == tag)

        // A new service over the same folder, as after a restart: 304 from the kept answer.
        let second = try ServerUnderTest(origin: first.origin, cacheDirectory: folder)
        defer { second.stop() }
        let again = try await Self.fetching(second, paths[0], [tag, "\"other\""])
        #expect(again[0].status == 304 && again[0].etag == tag && again[0].body.isEmpty)
        #expect(again[0].header("server-timing")?.hasPrefix("answer-disk;") == true)
        #expect(again[1].status == 200 && again[1].body == made[0].body)
        let newSize = try await Self.fetching(second, paths[1], [nil])[0]
        #expect(newSize.status == 200 && newSize.header("server-timing")?.hasPrefix("disk;") == true, "from the kept original")
        #expect(first.origin.hits("/files/photo.jpg") == 1, "the source was fetched once")
    }

    /// `path` fetched from `harness`'s service once for each `If-None-Match` value (or none).
    private static func fetching(_ harness: ServerUnderTest, _ path: String, _ conditions: [String?]) async throws -> [CurlGet] {
        try await harness.fetch(conditions.map { (path, $0.map { ["If-None-Match: \($0)"] } ?? []) })
    }

    @Test func theAdmissionBoundAnswers429WhileItIsFull() async throws {
        let harness = try ServerUnderTest()
        let paths = try harness.paths([.init(url: harness.origin.url("/delay/60000/files/photo.jpg").absoluteString, width: 32),
                                       .init(url: harness.source("alpha.png"), width: 16)])
        let router = Router()
        router.group().add(middleware: AdmissionMiddleware<BasicRequestContext>(limit: 1)).addImageRoutes(harness.service)
        try await ServerUnderTest.serving(router) { base in
            async let slow = CurlGet.fetch(base + paths[0])
            // Inside once its source is asked for: the origin counts it before answering.
            while harness.origin.peakConcurrentDelays == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let busy = try await CurlGet.fetch(base + paths[1])
            #expect(busy.status == 429 && busy.text == "Too many requests\n" && busy.header("retry-after") == "1")
            harness.origin.stop()  // the delay ends, the slow request is answered and leaves
            _ = try await slow
            #expect(try await CurlGet.fetch(base + paths[1]).status == 404, "admitted again (the origin is gone: unreachable)")
        }
    }
}
