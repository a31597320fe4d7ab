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
    private var pid: pid_t?

    /// `redis://127.0.0.1:PORT/0`.
    public var url: String { "redis://127.0.0.1:\(port)/0" }

    /// Starts a server on a free port and waits until it accepts connections.
    public init() throws {
        port = try Self.freePort()
        try start()
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
    public func pause() {
        if let pid { Glibc.kill(pid, SIGSTOP) }
    }

    /// Thaws a paused server.
    public func resume() {
        if let pid { Glibc.kill(pid, SIGCONT) }
    }

    /// Signals the server and reaps it. (Spawned and reaped with POSIX calls: Foundation's
    /// `Process.waitUntilExit` spun forever here once.)
    private func end(_ signal: Int32) {
        guard let pid else { return }
        Glibc.kill(pid, signal)
        Glibc.kill(pid, SIGCONT)  // a paused server must run to act on SIGTERM
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        self.pid = nil
    }

    private func start() throws {
        let executable = try Self.executable()
        let arguments = [executable, "--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no",
                         "--protected-mode", "yes", "--daemonize", "no", "--loglevel", "warning"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child inherits the calling thread's signal mask, and Dispatch's threads block
        // nearly every signal: Redis would never see SIGTERM. Start it with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child = pid_t()
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw RedisServerError.didNotStart(port) }
        pid = child
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        stop()
        throw RedisServerError.didNotStart(port)
    }

    private static func executable() throws -> String {
        for path in ["/usr/bin/redis-server", "/usr/local/bin/redis-server"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        throw RedisServerError.notInstalled
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A port the kernel just handed out and that nothing holds now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw RedisServerError.noFreePort }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a test Redis did not start.
public enum RedisServerError: Error {
    case notInstalled
    case noFreePort
    case didNotStart(Int)
}
