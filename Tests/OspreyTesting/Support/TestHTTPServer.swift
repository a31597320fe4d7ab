#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyDomain

/// A real HTTP/1.1 server on 127.0.0.1 for the network tests, started and stopped by the
/// tests themselves. It serves registered files and misbehaves on purpose, by path:
///
/// | path | behaviour |
/// |---|---|
/// | `/files/NAME` | the file, with ETag and Last-Modified; `If-None-Match` → 304 |
/// | `/origin/`, `/origin/NAME` | a JSON list of the files, and each file, without validators: a plain origin |
/// | `/status/CODE` | that status and a short body |
/// | `/delay/MS/files/NAME` | waits, then the file |
/// | `/drip/MS/files/NAME` | the file in 8 pieces, MS apart |
/// | `/stall/files/NAME` | headers and half the body, then nothing until the client leaves |
/// | `/disconnect/files/NAME` | headers and half the body, then the connection closes |
/// | `/short/files/NAME` | a Content-Length 1000 bytes longer than the body |
/// | `/flaky/N/CODE/files/NAME` | CODE (with `Retry-After: 0`) for the first N requests, then the file |
/// | `/redirect/N/files/NAME` | N redirects, then the file |
/// | `/loop` | redirects to itself |
/// | `/to/URL` | redirects to URL, given percent-encoded (`to(_:)` makes the path) |
/// | `/gzip/files/NAME` | the file gzip-encoded |
/// | `/huge/BYTES` | BYTES zero bytes, announced by Content-Length |
/// | `/html` | a small HTML page |
/// | a path given to `route(_:…)` | that answer, exactly as given (a fake S3 endpoint's objects) |
///
/// Every response closes its connection; the server counts connections opened and closed.
public final class TestHTTPServer: @unchecked Sendable {
    /// A registered file.
    public struct File: Sendable {
        public var data: Data
        public var contentType: String
        public var headers: [String: String]
    }

    struct State {
        var files: [String: File] = [:]
        var routes: [String: (status: Int, headers: [String: String], body: Data)] = [:]
        var hits: [String: Int] = [:]
        var requests: [(path: String, headers: [String: String])] = []
        var opened = 0
        var closed = 0
        var delaying = 0
        var bodyBytes = 0
        var peakDelaying = 0
        var stopped = false
    }

    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    let state = Locked(State())

    /// Starts listening on 127.0.0.1 on a free port.
    public init() throws {
        // Close-on-exec: a server or tool another test spawns must not hold this socket open.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 512) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections in progress end at their next step. The accept loop
    /// closes the listener as it leaves: closed here, its descriptor's number could go to a
    /// later test's listener before the loop's next `accept`, which would then take that
    /// server's connections and answer them from this server's files.
    public func stop() {
        let wasStopped = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        // Only while the descriptor is still this server's socket: closed by mistake elsewhere
        // in the process, its number may now be another test's socket.
        if Self.localPort(of: listener) == port { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    /// The local port of the socket `fd`, or `nil` when it is no IPv4 socket.
    private static func localPort(of fd: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return named && address.sin_family == sa_family_t(AF_INET) ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The path of a redirect to `target`, any URL at all.
    public static func to(_ target: String) -> String {
        "/to/" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// Registers a file served under `/files/NAME` (and the misbehaving paths).
    public func serve(_ name: String, _ data: Data, contentType: String = "application/octet-stream", headers: [String: String] = [:]) {
        state.withLock { $0.files[name] = File(data: data, contentType: contentType, headers: headers) }
    }

    /// Answers requests for exactly `path` (query included) with `status`, `headers` and `body`.
    public func route(_ path: String, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        state.withLock { $0.routes[path] = (status, headers, body) }
    }

    /// How many requests reached `path`.
    public func hits(_ path: String) -> Int { state.withLock { $0.hits[path] ?? 0 } }
    /// The headers of every request, in arrival order.
    public var requests: [(path: String, headers: [String: String])] { state.withLock { $0.requests } }
    /// Connections accepted and connections closed so far.
    public var connections: (opened: Int, closed: Int) { state.withLock { ($0.opened, $0.closed) } }
    /// The most `/delay/` and `/drip/` requests in flight at once so far, counted before any
    /// byte of their response is sent, so a client cannot race the count.
    public var peakConcurrentDelays: Int { state.withLock { $0.peakDelaying } }
    /// Body bytes sent so far by complete responses (files, statuses, delays).
    public var bodyBytesSent: Int { state.withLock { $0.bodyBytes } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR && !state.withLock({ $0.stopped }) { continue }
                close(listener)
                return
            }
            if state.withLock({ $0.stopped }) {  // accepted as it stopped
                close(client)
                close(listener)
                return
            }
            // A connection to another port means this descriptor number is no longer this
            // server's listener (closed elsewhere and reused): never answer another test's
            // client from these files; stop, and leave the descriptor to its owner.
            guard Self.localPort(of: client) == port else {
                close(client)
                FileHandle.standardError.write(Data("TestHTTPServer on \(port): its listener descriptor was reused; stopping\n".utf8))
                state.withLock { $0.stopped = true }
                return
            }
            state.withLock { $0.opened += 1 }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var noDelay: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            Thread { [self] in
                handle(client)
                close(client)
                state.withLock { $0.closed += 1 }
            }.start()
        }
    }

    private func handle(_ fd: Int32) {
        guard let (path, headers) = readRequest(fd) else { return }
        let count = state.withLock { state -> Int in
            state.hits[path, default: 0] += 1
            state.requests.append((path, headers))
            return state.hits[path]!
        }
        respond(fd, path: path, headers: headers, hit: count)
    }

    private func readRequest(_ fd: Int32) -> (String, [String: String])? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !(buffer.count >= 4 && Array(buffer.suffix(4)) == [13, 10, 13, 10]) {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
            if buffer.count > 65_536 { return nil }
        }
        let lines = String(decoding: buffer, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // A repeated field's values are joined, as HTTP allows, so a test sees every copy.
            let name = line[..<colon].lowercased(), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return (String(parts[1]), headers)
    }
}
