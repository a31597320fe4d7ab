import Foundation

/// `osprey-server`, started on a free port with its own folders, asked through curl's command
/// line tool, stopped with SIGTERM.
public final class ServerProcess: @unchecked Sendable {
    public let port: Int
    public let folder: URL
    public let process = Process()
    public let log: URL

    public static var buildFolder: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// Starts the server on `port`, or on a free port: if a port found free is taken before
    /// the server binds it (it then exits), on another, up to five times.
    public static func start(port: Int? = nil, arguments: [String] = [], environment: [String: String] = [:],
                             executable: String = "osprey-server", readyPath: String = "/health") throws -> ServerProcess {
        if let port {
            return try ServerProcess(port: port, arguments: arguments, environment: environment, executable: executable, readyPath: readyPath).ready()
        }
        var attempts = 0
        while true {
            let demo = try ServerProcess(port: LoopbackPort.free(), arguments: arguments, environment: environment, executable: executable,
                                         readyPath: readyPath)
            if demo.started || demo.process.isRunning || attempts == 4 { return try demo.ready() }
            attempts += 1
        }
    }

    /// Whether the server answered (rather than exiting or running past its deadline).
    private var started = false

    private init(port: Int, arguments: [String], environment extra: [String: String], executable: String, readyPath: String) throws {
        self.port = port
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = Self.buildFolder.appendingPathComponent(executable)
        process.arguments = ["--port", "\(self.port)", "--cache-dir", folder.appendingPathComponent("cache").path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder.path  // samples drawn into this test's folder
        process.environment = environment.merging(extra) { _, given in given }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(120))
        // Ready once this process says it listens on the port and the port answers: another
        // test's server that took the port first answers too, but this one then never listens.
        while !(listens && (try? get(readyPath))?.status == 200) {
            guard process.isRunning, ContinuousClock.now < deadline else { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        started = true
    }

    /// Whether the server's log says it is listening on this port.
    private var listens: Bool {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("listening on http://127.0.0.1:\(port)/")
    }

    /// This server if it started; its log as the error otherwise.
    private func ready() throws -> ServerProcess {
        guard started else { throw Failure.notStarted((try? String(contentsOf: log, encoding: .utf8)) ?? "") }
        return self
    }

    public var base: String { "http://127.0.0.1:\(port)" }

    /// `start` on a thread of its own (``onThread(_:)``).
    public static func launch(arguments: [String] = [], environment: [String: String] = [:]) async throws -> ServerProcess {
        try await onThread { try start(arguments: arguments, environment: environment) }
    }

    /// `get` on a thread of its own (``onThread(_:)``).
    public func fetch(_ path: String, headers: [String] = []) async throws -> (status: Int, headers: String, body: Data) {
        try await onThread { try self.get(path, headers: headers) }
    }

    /// Status, headers and body of a GET, through curl's command line tool.
    @discardableResult
    public func get(_ path: String, headers: [String] = []) throws -> (status: Int, headers: String, body: Data) {
        let answer = try CurlGet.run(base + path, headers: headers, scratch: folder)
        return (answer.status, answer.headers, answer.body)
    }

    /// The CPU time the process has used so far, user and system, in seconds (10 ms steps).
    public var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // The fields after the command's name: state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        let status = process.terminationStatus
        // A failed exit (a sanitizer's report, say) is written last in the log, which the
        // deinit removes: the test's output is the only place left to read it.
        if status != 0, let logged = try? String(contentsOf: log, encoding: .utf8) {
            FileHandle.standardError.write(Data("osprey-server exited \(status); its log ends:\n\(logged.suffix(8000))\n".utf8))
        }
        return status
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    public enum Failure: Error { case notStarted(String), noBrowser }
}
