#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program and reports its exit status, output and peak memory, measured by the
/// kernel (`wait4`'s resource usage), so a test can bound what a whole process held.
public enum ChildProcess {
    /// What a finished child did.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + signal when it was killed.
        public let status: Int32
        /// Standard output and standard error, interleaved.
        public let output: String
        /// Peak resident memory in bytes.
        public let peakMemory: Int
    }

    /// Runs `executable` with `arguments` to completion.
    public static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-child-\(UUID().uuidString).txt").path
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        return Outcome(status: code, output: output, peakMemory: usage.ru_maxrss * 1024)
    }
}
