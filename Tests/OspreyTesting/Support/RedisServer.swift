#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real `redis-server` (Debian's redis-server, installed by `make setup`) on 127.0.0.1, on a
/// port of its own, started and stopped by the tests: nothing persisted, nothing shared with
/// another test. It can be stopped, restarted on the same port, and paused (SIGSTOP: it
/// accepts connections and never answers, a Redis "answering slowly" at its worst).
public final class RedisServer: @unchecked Sendable {
    /// The port it listens on; the same after ``restart()``.
    public let port: Int
    private var server: SpawnedServer?
    private let commandLine: @Sendable (Int) -> [String]

    /// `redis://127.0.0.1:PORT/0`.
    public var url: String { "redis://127.0.0.1:\(port)/0" }

    /// Starts a server on a free port and waits until it accepts connections.
    public init() throws {
        let executable = try Self.executable()
        commandLine = { Self.arguments(executable, port: $0) }
        let server = try SpawnedServer.onFreePort(commandLine)
        port = server.port
        self.server = server
    }

    /// A server that speaks only TLS, with `certificate` and `key` (PEM files), and asks for
    /// `password` (`requirepass`).
    public init(tlsCertificate certificate: String, key: String, password: String) throws {
        let executable = try Self.executable()
        commandLine = { port in
            [executable, "--bind", "127.0.0.1", "--port", "0", "--tls-port", String(port), "--tls-cert-file", certificate,
             "--tls-key-file", key, "--tls-auth-clients", "no", "--requirepass", password, "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--loglevel", "warning"]
        }
        let server = try SpawnedServer.onFreePort(commandLine)
        port = server.port
        self.server = server
    }

    deinit { stop() }

    /// Starts the server again on the same port (after ``stop()`` or ``kill()``), empty.
    public func restart() throws {
        stop()
        try start()
    }

    /// Stops the server (SIGTERM, waited for).
    public func stop() { end(SIGTERM) }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill() { end(SIGKILL) }

    /// Freezes the server (SIGSTOP): connections are accepted by the kernel, nothing is answered.
    public func pause() { server?.signal(SIGSTOP) }

    /// Thaws a paused server.
    public func resume() { server?.signal(SIGCONT) }

    private func end(_ signal: Int32) {
        server?.end(signal)
        server = nil
    }

    private func start() throws {
        server = try SpawnedServer(commandLine(port), port: port)
    }

    /// The command line of a test Redis on `port`.
    public static func arguments(_ executable: String, port: Int) -> [String] {
        [executable, "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
         "--protected-mode", "yes", "--daemonize", "no", "--loglevel", "warning"]
    }

    /// The installed `redis-server`.
    public static func executable() throws -> String {
        for path in ["/usr/bin/redis-server", "/usr/local/bin/redis-server"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw RedisServerError.notInstalled
    }
}

/// Why a test Redis did not start.
public enum RedisServerError: Error {
    case notInstalled
}
