import Foundation

/// An HTTP proxy on a loopback port that tunnels CONNECT requests only
/// (`Tests/Scripts/connect_proxy.py`), logging each request line so a test can see which
/// address a client asked it for. With an `upstream` (`host:port`), every tunnel goes there,
/// whatever address was asked for.
public final class ConnectProxy: @unchecked Sendable {
    public var url: String { "http://127.0.0.1:\(server.port)" }
    private let server: SpawnedServer
    private let logFile: URL

    public init(upstream: String? = nil) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-proxy-\(UUID().uuidString).log")
        try Data().write(to: logFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/connect_proxy.py").path
        server = try SpawnedServer.onFreePort(startingWithin: 30) { [logFile] in ["/usr/bin/env", "python3", script, "\($0)", logFile.path] + (upstream.map { [$0] } ?? []) }
    }

    deinit { stop() }

    /// The request lines received so far, such as `CONNECT 127.0.0.1:8080 HTTP/1.1`.
    public func requests() -> [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() {
        server.end(SIGTERM)
        try? FileManager.default.removeItem(at: logFile)
    }
}
