import ArgumentParser
import Foundation
import Hummingbird
import Osprey
import OspreyDomain
import OspreyPrograms

/// `osprey-demo`: the gallery, served to a browser, with the demo's own image origin.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey-demo",
        abstract: "A gallery of thumbnails loaded through Osprey's pipeline, served to a browser.",
        discussion: """
            Serves sample images as an HTTP origin (a folder, or a set it draws on first start) and \
            a gallery page whose thumbnails go network → disk → memory for real. Every option also \
            reads an environment variable, OSPREY_ and its name in capitals (OSPREY_PORT, \
            OSPREY_ORIGIN_FOLDER, OSPREY_UPSTREAM, OSPREY_CACHE_DIR…), as osprey-server's do. \
            Defaults: disk 256MB, memory 128MB. SIGINT or SIGTERM stops it cleanly.

            Example:
              osprey-demo --port 8080 --cache-dir /tmp/osprey-demo-cache
            """
    )

    @Option(help: "The address to listen on (default 127.0.0.1).") var host: String?
    @Option(help: "The port (default 8080).") var port: Int?
    @Option(help: "A folder of images to serve as the origin (default: a drawn sample set).") var originFolder: String?
    @Option(help: "Another server's origin URL to load images from instead of a folder (an osprey-demo's base URL).") var upstream: String?
    @OptionGroup var cache: CacheFlags
    @Option(help: "Another origin /thumb may fetch from (scheme://host:port); repeat for more.") var allowOrigin: [String] = []

    static let cacheDefaults = CacheFlags.Defaults(folderName: "osprey-demo/cache", diskLimit: 256_000_000, memoryLimit: 128_000_000)

    static var stateFolder: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("osprey-demo")
    }

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        let host = try ProgramEnvironment.value(host, "HOST") ?? "127.0.0.1"
        let port = try ProgramEnvironment.value(port, "PORT") ?? 8080
        let upstreamURL = (upstream ?? ProgramEnvironment.value("UPSTREAM")).flatMap { URL(string: $0) }
        let base = URL(string: "http://\(host):\(port)")!

        let origin: DemoOrigin
        if let upstreamURL {
            origin = try await .upstream(upstreamURL)
        } else {
            let folder = (originFolder ?? ProgramEnvironment.value("ORIGIN_FOLDER")).map { URL(fileURLWithPath: $0) }
            origin = try .folder(folder, drawingSamplesIn: Self.stateFolder.appendingPathComponent("samples"), servedAt: base)
        }

        var configuration = try cache.configuration(Self.cacheDefaults)
        let allowed = [origin.baseURL] + ProgramEnvironment.list(allowOrigin, "ALLOW_ORIGIN").compactMap { URL(string: $0) }
        let policy = OriginPolicy(allowing: allowed)
        // Every connection's address and every redirect's target are checked by the loader.
        configuration.network.addressPolicy = policy.addressPolicy
        configuration.network.sourceFilter = { policy.refusal(for: $0) }
        configuration.network.maxRedirects = 3
        let parts = try configuration.makeParts()
        guard let memory = parts.memory, let disk = parts.disk else { throw ValidationError("the demo needs both caches") }
        let server = DemoServer(pipeline: parts.pipeline, memory: memory, disk: disk, origin: origin, policy: policy)
        let app = Application(router: server.router(), configuration: .init(address: .hostname(host, port: port)),
                              onServerRunning: { _ in print("osprey-demo: serving the gallery at \(base.absoluteString)/") })
        try await app.runService()
        parts.disk?.close()  // flush the index's pending access times before exiting
        print("osprey-demo: stopped; disk cache index flushed")
    }
}
