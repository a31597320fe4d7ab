import ArgumentParser
import Foundation
import Hummingbird
import Osprey
import OspreyDomain
import OspreyRedisCache

/// `osprey-demo`: the gallery, served to a browser, with the demo's own image origin.
@main
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey-demo",
        abstract: "A gallery of thumbnails loaded through Osprey's pipeline, served to a browser.",
        discussion: """
            Serves sample images as an HTTP origin (a folder, or a set it draws on first start) and \
            a gallery page whose thumbnails go network → disk → memory for real. Every option also \
            reads an environment variable (OSPREY_DEMO_PORT, OSPREY_DEMO_ORIGIN_FOLDER, \
            OSPREY_DEMO_UPSTREAM, OSPREY_DEMO_CACHE_DIR). SIGINT or SIGTERM stops it cleanly.

            Example:
              osprey-demo --port 8080 --cache-dir /tmp/osprey-demo-cache
            """
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port (default 8080, or $OSPREY_DEMO_PORT).") var port: Int?
    @Option(help: "A folder of images to serve as the origin (default: a drawn sample set).") var originFolder: String?
    @Option(help: "Another server's origin URL to load images from instead of a folder (an osprey-demo's base URL).") var upstream: String?
    @Option(help: "The disk cache folder (default: $XDG_CACHE_HOME/osprey-demo/cache).") var cacheDir: String?
    @Option(help: "The disk cache's limit in megabytes.") var diskLimitMB = 256
    @Option(help: "The memory cache's limit in megabytes.") var memoryLimitMB = 128
    @Option(help: "A cache shared with the other instances of a fleet: redis://HOST[:PORT][/DB] (or $OSPREY_DEMO_SHARED_CACHE).")
    var sharedCache: String?
    @Option(help: "Another origin /thumb may fetch from (scheme://host:port); repeat for more.") var allowOrigin: [String] = []

    static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var stateFolder: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("osprey-demo")
    }

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        let port = port ?? Self.environment("OSPREY_DEMO_PORT").flatMap(Int.init) ?? 8080
        let upstreamURL = (upstream ?? Self.environment("OSPREY_DEMO_UPSTREAM")).flatMap { URL(string: $0) }
        let cacheFolder = (cacheDir ?? Self.environment("OSPREY_DEMO_CACHE_DIR")).map { URL(fileURLWithPath: $0) }
            ?? Self.stateFolder.appendingPathComponent("cache")
        let base = URL(string: "http://\(host):\(port)")!

        let origin: DemoOrigin
        if let upstreamURL {
            origin = try await .upstream(upstreamURL)
        } else {
            let folder = (originFolder ?? Self.environment("OSPREY_DEMO_ORIGIN_FOLDER")).map { URL(fileURLWithPath: $0) }
            origin = try .folder(folder, drawingSamplesIn: Self.stateFolder.appendingPathComponent("samples"), servedAt: base)
        }

        var configuration = OspreyConfiguration(cacheDirectory: cacheFolder, diskLimit: diskLimitMB * 1_000_000,
                                                memoryLimit: memoryLimitMB * 1_000_000)
        let allowed = [origin.baseURL] + allowOrigin.compactMap { URL(string: $0) }
        let policy = OriginPolicy(allowing: allowed)
        // Every connection's address and every redirect's target are checked by the loader.
        configuration.network.addressPolicy = policy.addressPolicy
        configuration.network.sourceFilter = { policy.refusal(for: $0) }
        configuration.network.maxRedirects = 3
        if let shared = sharedCache ?? Self.environment("OSPREY_DEMO_SHARED_CACHE") {
            configuration.sharedCache = RedisDataCache(configuration: try RedisDataCache.Configuration(url: shared), logger: configuration.logger)
        }
        let parts = try configuration.makeParts()
        let server = DemoServer(pipeline: parts.pipeline, memory: parts.memory!, disk: parts.disk!, origin: origin,
                                policy: policy, limits: (diskLimitMB, memoryLimitMB))
        let app = Application(router: server.router(), configuration: .init(address: .hostname(host, port: port)),
                              onServerRunning: { _ in print("osprey-demo: serving the gallery at \(base.absoluteString)/") })
        try await app.runService()
        parts.disk?.close()  // flush the index's pending access times before exiting
        print("osprey-demo: stopped; disk cache index flushed")
    }
}
