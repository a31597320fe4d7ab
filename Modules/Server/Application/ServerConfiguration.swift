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
    /// Image requests served or waiting at once; past it, `503` with `Retry-After` (default 64).
    public var maxQueue: Int
    /// Where the image routes are mounted (imgproxy's `IMGPROXY_PATH_PREFIX`), health checks
    /// too; empty: the root.
    public var pathPrefix: String
    /// A path answered `ok` while the server runs, beside `/health` (imgproxy's
    /// `IMGPROXY_HEALTH_CHECK_PATH`); `nil`: `/health` alone.
    public var healthPath: String?
    /// Metrics on an address of their own (imgproxy's `IMGPROXY_PROMETHEUS_BIND`): counts of
    /// refusals and tiers are the operator's, not every client's. `nil`: none.
    public var metrics: MetricsEndpoint?
    /// Routes of the app's own, added beside the image routes (the demo's gallery).
    public var routes: @Sendable (Router<BasicRequestContext>) -> Void
    /// Told the port once the server listens.
    public var onServerRunning: @Sendable (Int) async -> Void
    /// Where the server and the service log.
    public var logger: Logger

    /// Where `/metrics` is served, and what it answers.
    public struct MetricsEndpoint: Sendable {
        public var host: String
        public var port: Int
        /// The metrics in Prometheus' text format (the app's backend renders them).
        public var render: @Sendable () -> String

        /// Metrics at `host:port`, rendered by `render`.
        public init(host: String, port: Int, render: @escaping @Sendable () -> String) {
            (self.host, self.port, self.render) = (host, port, render)
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
        routes = { _ in }
        onServerRunning = { _ in }
        logger = Logger(label: "osprey.server")
    }

    /// Settings that cannot be honoured, found before anything is built.
    func validate() throws(ServerConfigurationError) {
        guard idleTimeout > .zero, maxConnections > 0, maxQueue > 0 else {
            throw .outOfRange("the idle timeout, the connection limit and the queue must be positive")
        }
        guard (healthPath ?? "/").hasPrefix("/") else { throw .outOfRange("the health check's path must start with /") }
        guard pathPrefix.isEmpty || (pathPrefix.hasPrefix("/") && !pathPrefix.hasSuffix("/")) else {
            throw .outOfRange("the path prefix must start with / and not end with one")
        }
    }
}
