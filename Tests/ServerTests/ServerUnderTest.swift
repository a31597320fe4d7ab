import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting

/// An osprey-server in this process, as `buildApplication` makes it, over one `ImageService`
/// that lives across requests (as the executable's does), with an origin on loopback that its
/// source policy allows. Each `fetch` runs the application on a port the system gives.
struct ServerUnderTest {
    let origin: TestHTTPServer
    let configuration: ServerConfiguration
    let service: ImageService

    /// A server with a new origin, or with `origin` (as a restarted server would meet it), and
    /// a disk cache in `cacheDirectory` (memory only without one).
    init(origin: TestHTTPServer? = nil, cacheDirectory: URL? = nil,
         configure: (inout ImageService.Configuration) -> Void = { _ in }) throws {
        if let origin {
            self.origin = origin
        } else {
            self.origin = try TestHTTPServer()
            self.origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg",
                              headers: ["ETag": "\"photo-1\""])
            self.origin.serve("alpha.png", try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")), contentType: "image/png")
        }
        var osprey = OspreyConfiguration(cacheDirectory: cacheDirectory)
        osprey.network.maxRetries = 0
        var service = ImageService.Configuration(
            signingKeys: try SigningKeys(hexKeys: [ServerProcessTests.key], hexSalts: [ServerProcessTests.salt]),
            sources: SourcePolicy(allowedPrefixes: [self.origin.url("/").absoluteString]), osprey: osprey)
        service.timeout = nil  // the suite's debug build on a busy machine: no deadline unless a test sets one
        configure(&service)
        configuration = ServerConfiguration(service: service, port: 0)
        do {
            self.service = try ImageService(configuration: service)
        } catch {
            // The origin's accept loop holds it until it stops: a configuration refused here
            // must not leave a server (and its files) running until the process ends.
            if origin == nil { self.origin.stop() }
            throw error
        }
    }

    /// Paths signed by imgproxy's own URL builder, for sources on the origin.
    func paths(_ specs: [ServerProcessTests.Spec]) throws -> [String] { try ServerProcessTests.paths(specs) }

    func source(_ name: String) -> String { origin.url("/files/\(name)").absoluteString }

    /// Each of `requests` (a path and its headers) fetched once, in order, by curl from the
    /// application, which runs for the while.
    func fetch(_ requests: [(path: String, headers: [String])]) async throws -> [CurlGet] {
        var configuration = configuration
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        configuration.onServerRunning = { continuation.yield($0) }
        let app = try buildApplication(configuration, service: service)
        let answers = Locked([CurlGet]())
        try await Self.running(app, ports) { base in
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

    /// Serves an app's own `router` on a port the system gives, runs `body` with its base URL,
    /// then stops.
    static func serving(_ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        try await running(app, ports, body)
    }

    private static func running(_ app: some ApplicationProtocol, _ ports: AsyncStream<Int>,
                                _ body: @escaping @Sendable (String) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            for await port in ports {
                defer { group.cancelAll() }
                try await body("http://127.0.0.1:\(port)")
                break
            }
        }
    }

    /// Closes the disk cache; stops the origin unless it goes on to another server.
    func stop(keepingOrigin: Bool = false) {
        service.close()
        if !keepingOrigin { origin.stop() }
    }
}
