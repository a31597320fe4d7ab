import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting

/// An `ImageService` over a pipeline (memory-only unless given a cache folder), with an
/// origin on loopback that its source policy allows, mounted on a real Hummingbird
/// application in this process.
struct ServingHarness {
    let origin: TestHTTPServer
    let service: ImageService
    private let disk: DiskCache?

    /// A harness with a new origin, or with `origin` (as a restarted server would meet it).
    init(origin: TestHTTPServer? = nil, cacheDirectory: URL? = nil,
         configure: (inout ImageService.Configuration) -> Void = { _ in },
         osprey configureOsprey: (inout OspreyConfiguration) -> Void = { _ in }) throws {
        if let origin {
            self.origin = origin
        } else {
            self.origin = try TestHTTPServer()
            self.origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg",
                              headers: ["ETag": "\"photo-1\""])
            self.origin.serve("alpha.png", try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")), contentType: "image/png")
        }
        let origin = self.origin
        let policy = SourcePolicy(allowedPrefixes: [origin.url("/").absoluteString])
        var osprey = OspreyConfiguration(cacheDirectory: cacheDirectory)
        osprey.network.addressPolicy = policy.addressPolicy
        osprey.network.sourceFilter = { policy.refusal(for: $0) }
        osprey.network.maxRetries = 0
        configureOsprey(&osprey)
        var configuration = ImageService.Configuration(
            signingKeys: try SigningKeys(hexKeys: [ServerProcessTests.key], hexSalts: [ServerProcessTests.salt]), sources: policy)
        configure(&configuration)
        let parts = try osprey.makeParts()
        disk = parts.disk
        service = ImageService(pipeline: parts.pipeline, configuration: configuration)
    }

    /// Paths signed by imgproxy's own URL builder, for sources on the origin.
    func paths(_ specs: [ServerProcessTests.Spec]) throws -> [String] { try ServerProcessTests.paths(specs) }

    func source(_ name: String) -> String { origin.url("/files/\(name)").absoluteString }

    /// Serves `router` on a port the system gives, runs `body` with its base URL, then stops.
    static func serving(_ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            for await port in ports {
                defer { group.cancelAll() }
                try await body("http://127.0.0.1:\(port)")
                break
            }
        }
    }

    /// Each of `requests` (a path and its headers) fetched once, in order, by curl from the
    /// service mounted at the root of an app that runs for the while.
    func fetch(_ requests: [(path: String, headers: [String])]) async throws -> [CurlGet] {
        let router = Router()
        router.addImageRoutes(service)
        let answers = Locked([CurlGet]())
        try await Self.serving(router) { base in
            for request in requests {
                let answer = try await CurlGet.fetch(base + request.path, headers: request.headers)
                answers.withLock { $0.append(answer) }
            }
        }
        return answers.withLock { $0 }
    }

    /// Each of `paths` fetched once, in order, without headers.
    func fetch(_ paths: [String]) async throws -> [CurlGet] {
        try await fetch(paths.map { ($0, []) })
    }

    /// Closes the disk cache; stops the origin unless it goes on to another harness.
    func stop(keepingOrigin: Bool = false) {
        disk?.close()
        if !keepingOrigin { origin.stop() }
    }
}
