#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyDomain

/// A server program run as a child of the tests, on a loopback port: started with nothing
/// blocked, waited for until it accepts connections, signalled and reaped when done.
///
/// Spawned and reaped with POSIX calls: Foundation's `Process.waitUntilExit` spun forever
/// once. The child inherits the calling thread's signal mask, and Dispatch's threads block
/// nearly every signal: a server started from one would never see SIGTERM, so it starts
/// with none blocked.
public final class SpawnedServer: @unchecked Sendable {
    public let port: Int
    private(set) var pid: pid_t?

    /// Runs `arguments(port)` on a port nothing holds, waiting until it accepts connections.
    /// A port found free can be taken before the server binds it (any outgoing connection may
    /// get it as its local port, and the tests make thousands): a server that exits before it
    /// accepts is started again on another port, up to five times.
    public static func onFreePort(startingWithin seconds: Int = 10, _ arguments: (Int) -> [String]) throws -> SpawnedServer {
        var attempts = 0
        while true {
            let port = try LoopbackPort.free()
            do {
                return try SpawnedServer(arguments(port), port: port, startingWithin: seconds)
            } catch SpawnedServerError.exited where attempts < 4 {
                attempts += 1
            }
        }
    }

    /// Runs `arguments` (the program first; its output goes to /dev/null) and waits up to
    /// `seconds` (10) for it to accept connections on `port`; throws `exited` at once if it ends first.
    public init(_ arguments: [String], port: Int, startingWithin seconds: Int = 10) throws {
        self.port = port
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var child = pid_t()
        guard posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ) == 0 else {
            throw SpawnedServerError.didNotStart(arguments[0])
        }
        pid = child
        Self.running.withLock { _ = $0.insert(child) }
        let deadline = Date().addingTimeInterval(TimeInterval(Sanitizer.scaled(seconds)))
        while Date() < deadline {
            if LoopbackPort.accepts(port) { return }
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                pid = nil
                Self.running.withLock { _ = $0.remove(child) }
                throw SpawnedServerError.exited(arguments[0], port: port)
            }
            usleep(20_000)
        }
        end(SIGKILL)
        throw SpawnedServerError.didNotStart(arguments[0])
    }

    deinit { end(SIGTERM) }

    /// Sends `signal` (and SIGCONT, so a stopped server can act on it) and reaps the child.
    public func end(_ signal: Int32) {
        guard let pid else { return }
        kill(pid, signal)
        kill(pid, SIGCONT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Self.running.withLock { _ = $0.remove(pid) }
        self.pid = nil
    }

    /// The children not yet reaped. A server held by a `static` outlives every test (Swift
    /// never deinitialises globals), so the process kills what is left as it exits.
    private static let running: Locked<Set<pid_t>> = {
        atexit {
            for pid in SpawnedServer.running.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
        return Locked([])
    }()

    /// Sends `signal` without waiting (SIGSTOP, SIGCONT).
    public func signal(_ signal: Int32) {
        if let pid { kill(pid, signal) }
    }
}

/// Why a test server did not start.
public enum SpawnedServerError: Error {
    /// It could not be run, or did not accept connections in time.
    case didNotStart(String)
    /// It ended before accepting connections (most often: its port was taken).
    case exited(String, port: Int)
}
