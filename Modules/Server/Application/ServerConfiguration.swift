import Foundation
import Hummingbird
import Logging

/// An osprey-server as a value: the image service's configuration and the HTTP server's
/// own settings. ``buildApplication(_:)`` makes the application from it — for the
/// `osprey-server` executable, the tests and an app alike.
public struct ServerConfiguration: Sendable {
    /// The image service: sources, limits, answers and the pipeline's parts.
    public var service: ImageService.Configuration
    /// The address to listen on (default `127.0.0.1`).
    public var host: String
    /// The port; 0 lets the system choose (``onServerRunning`` is told which).
    public var port: Int
    /// How long a connection may wait for a whole request head, idle or trickling bytes,
    /// before it is closed (default 10 s).
    public var idleTimeout: Duration
    /// Connections served at once; past it, new ones wait in the listen queue (default 1024).
    public var maxConnections: Int
    /// Image requests served or waiting at once; past it, `429` with `Retry-After` (default 64).
    public var maxQueue: Int
    /// Where the image routes are mounted, health checks too; empty: the root.
    public var pathPrefix: String
    /// A path answered `ok` while the server runs, beside `/health`; `nil`: `/health` alone.
    public var healthPath: String?
    /// Metrics on an address of their own: counts of refusals and tiers are the operator's,
    /// not every client's. `nil`: none.
    public var metrics: MetricsEndpoint?
    /// The prefix of every metric's name, `{namespace}_`; `nil`: none.
    public var metricsNamespace: String?
    /// A folder served as the demo: a page of its images at `/`, the folder at `/origin/`
    /// (which becomes an allowed source). `nil`: none.
    public var gallery: URL?
    /// A Redis URL of the cache a fleet shares, behind the disk cache; `nil`: none.
    public var sharedCache: String?
    /// A PEM file of the authorities that sign the shared cache's TLS certificate.
    public var sharedCacheAuthorities: String?
    /// How the program logs: JSON lines or text, and the least level.
    public var logsJSON: Bool
    public var logLevel: Logger.Level
    /// Routes of the app's own, added beside the image routes (the demo's gallery).
    public var routes: @Sendable (Router<BasicRequestContext>) -> Void
    /// Told the port once the server listens.
    public var onServerRunning: @Sendable (Int) async -> Void
    /// Where the server and the service log.
    public var logger: Logger

    /// Where `/metrics` is served in Prometheus' text format.
    public struct MetricsEndpoint: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            (self.host, self.port) = (host, port)
        }
    }

    /// A server of `service`; every other value has its default.
    public init(service: ImageService.Configuration, host: String = "127.0.0.1", port: Int = 8080) {
        self.service = service
        self.host = host
        self.port = port
        idleTimeout = .seconds(10)
        maxConnections = 1024
        maxQueue = 64
        pathPrefix = ""
        healthPath = nil
        metrics = nil
        metricsNamespace = nil
        gallery = nil
        sharedCache = nil
        sharedCacheAuthorities = nil
        logsJSON = false
        logLevel = .info
        routes = { _ in }
        onServerRunning = { _ in }
        logger = Logger(label: "osprey.server")
    }

    /// Settings that cannot be honoured or contradict each other, the service's included:
    /// the one check, made before anything is opened or started.
    public func validate() throws(ServerConfigurationError) {
        try service.validate()
        guard idleTimeout > .zero, maxConnections > 0, maxQueue > 0 else {
            throw .outOfRange("the idle timeout, the connection limit and the queue must be positive")
        }
        guard (healthPath ?? "/").hasPrefix("/") else { throw .outOfRange("the health check's path must start with /") }
        guard pathPrefix.isEmpty || (pathPrefix.hasPrefix("/") && !pathPrefix.hasSuffix("/")) else {
            throw .outOfRange("the path prefix must start with / and not end with one")
        }
        if let metrics, metrics.host == host, metrics.port == port, port != 0 {
            throw .outOfRange("the metrics' address is the server's own")
        }
        if let gallery {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: gallery.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw .unusable("the gallery \(gallery.path) is not a folder")
            }
        }
    }
}
