#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program and reports its exit status, output and peak memory, so a test can bound
/// what a whole process held.
///
/// The peak comes from GNU `time` (`/usr/bin/time`, Debian's `time`), which forks the
/// program itself: a child forked straight from the test process would inherit the test
/// process's own high-water mark, since Linux carries `ru_maxrss` across `exec`.
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

    /// Runs `executable` with `arguments` to completion, with this process's environment and
    /// `environment` over it (set for the child only: tests run side by side).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-child-\(UUID().uuidString).txt").path
        defer { unlink(outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let peakFile = outputFile + ".peak"
        defer { unlink(peakFile) }
        let timer = "/usr/bin/time"
        let argv = ([timer, "-q", "-f", "%M", "-o", peakFile, executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, timer, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        let peakText = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
        let peakKB = peakText.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last ?? 0
        return Outcome(status: code, output: output, peakMemory: peakKB * 1024)
    }
}
