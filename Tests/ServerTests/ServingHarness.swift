import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting

/// An `ImageService` over a memory-only pipeline, with an origin on loopback that its
/// source policy allows, mounted on a real Hummingbird application in this process.
struct ServingHarness {
    let origin: TestHTTPServer
    let service: ImageService

    init(configure: (inout ImageService.Configuration) -> Void = { _ in }) throws {
        origin = try TestHTTPServer()
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        origin.serve("alpha.png", try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")), contentType: "image/png")
        let policy = SourcePolicy(allowedPrefixes: [origin.url("/").absoluteString])
        var osprey = OspreyConfiguration(cacheDirectory: nil)
        osprey.network.addressPolicy = policy.addressPolicy
        osprey.network.sourceFilter = { policy.refusal(for: $0) }
        osprey.network.maxRetries = 0
        var configuration = ImageService.Configuration(
            signingKeys: try SigningKeys(hexKeys: [ServerProcessTests.key], hexSalts: [ServerProcessTests.salt]), sources: policy)
        configure(&configuration)
        service = ImageService(pipeline: try osprey.makePipeline(), configuration: configuration)
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

    func stop() { origin.stop() }
}
