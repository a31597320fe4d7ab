import Foundation

/// An HTTPS server on 127.0.0.1 for the tests (`Tests/Scripts/tls_server.py`, Python's
/// `ssl`), with a self-signed certificate made for the run: `certificateAuthorities` is the
/// file a client must trust to verify it. `/ok` answers "secure"; `/down` redirects to plain
/// `http` on `insecurePort` (nothing listens there: a client must refuse before connecting);
/// `/up` redirects to `/ok` over https.
public final class TLSTestServer: @unchecked Sendable {
    public let port: Int
    /// The plain-http port `/down` points to.
    public let insecurePort: Int
    private let folder: URL
    private var server: SpawnedServer?

    /// The server's certificate, to trust as the certificate authority.
    public var certificateAuthorities: String { folder.appendingPathComponent("cert.pem").path }

    public init() throws {
        let insecurePort = try LoopbackPort.free()
        let folder = try TemporaryFolder.make("tls")
        let script = Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/tls_server.py").path
        let server = try SpawnedServer.onFreePort { ["python3", script, String($0), String(insecurePort), folder.path] }
        self.insecurePort = insecurePort
        self.folder = folder
        port = server.port
        self.server = server
    }

    deinit { stop() }

    public func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    public func stop() {
        server?.end(SIGTERM)
        server = nil
        try? FileManager.default.removeItem(at: folder)
    }
}
