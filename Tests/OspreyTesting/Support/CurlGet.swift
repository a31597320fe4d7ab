import Foundation

/// One GET through curl's command line tool: what a client outside the process sees.
public struct CurlGet: Sendable {
    public let status: Int
    /// The response's head, lowercased.
    public let headers: String
    public let body: Data

    /// Runs curl and waits for it; `scratch` holds the body's file for the while.
    public static func run(_ url: String, headers: [String] = [], scratch: URL = FileManager.default.temporaryDirectory) throws -> CurlGet {
        let bodyFile = scratch.appendingPathComponent("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bodyFile) }
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-D", "-", "-o", bodyFile.path, "--max-time", "\(Sanitizer.scaled(60))"] + headers.flatMap { ["-H", $0] } + [url]
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let head = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        guard curl.terminationStatus == 0, let statusLine = head.split(separator: "\r\n").first,
              let status = Int(statusLine.split(separator: " ")[1]) else { throw CurlGetError.failed(url) }
        return CurlGet(status: status, headers: head.lowercased(), body: (try? Data(contentsOf: bodyFile)) ?? Data())
    }

    /// `run` on a thread of its own, so a server in this process keeps Swift's shared pool.
    public static func fetch(_ url: String, headers: [String] = []) async throws -> CurlGet {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try run(url, headers: headers) }) }.start()
        }
    }

    /// The value of the header `name` (lowercase), if the answer has it.
    public func header(_ name: String) -> String? {
        headers.split(separator: "\r\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The `ETag`, with a weak tag's `W/` in its case again (the head is read lowercased).
    public var etag: String? {
        header("etag").map { $0.hasPrefix("w/") ? "W/" + $0.dropFirst(2) : $0 }
    }
}

/// A GET curl could not make.
public enum CurlGetError: Error {
    case failed(String)
}
