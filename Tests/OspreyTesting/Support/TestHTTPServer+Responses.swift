#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyDomain

/// What the server answers to each path, and how the bytes go out (paced, in chunks, cut).
extension TestHTTPServer {
    func respond(_ fd: Int32, path: String, headers: [String: String], hit: Int) {
        if let route = state.withLock({ $0.routes[path] }) { return send(fd, status: route.status, headers: route.headers, body: route.body) }
        let parts = path.split(separator: "/").map(String.init)
        func file(from index: Int) -> File? {
            guard parts.count == index + 2, parts[index] == "files" else { return nil }
            return state.withLock { $0.files[parts[index + 1]] }
        }
        switch parts.first {
        case "files":
            guard let file = file(from: 0) else { return send(fd, status: 404, body: Data("no such file".utf8)) }
            let etag = "\"\(file.data.count)-\(file.data.hashValue & 0xFFFF)\""
            if headers["if-none-match"] == etag { return send(fd, status: 304, headers: file.headers.merging(["ETag": etag]) { _, new in new }, body: Data()) }
            send(fd, status: 200, headers: file.headers.merging(["ETag": etag, "Last-Modified": "Mon, 01 Jan 2024 00:00:00 GMT",
                                                                 "Content-Type": file.contentType]) { a, _ in a }, body: file.data)
        case "origin" where parts.count == 1:
            let names = state.withLock { $0.files.keys.sorted() }
            send(fd, status: 200, headers: ["Content-Type": "application/json"], body: (try? JSONEncoder().encode(names)) ?? Data())
        case "origin" where parts.count == 2:
            guard let file = state.withLock({ $0.files[parts[1]] }) else { return send(fd, status: 404, body: Data("no such file".utf8)) }
            send(fd, status: 200, headers: ["Content-Type": file.contentType], body: file.data)
        case "status":
            send(fd, status: Int(parts.count > 1 ? parts[1] : "500") ?? 500, body: Data("status page".utf8))
        case "delay":
            guard parts.count > 1, let ms = Int(parts[1]), let file = file(from: 2) else { return send(fd, status: 404, body: Data()) }
            state.withLock { state in
                state.delaying += 1
                state.peakDelaying = max(state.peakDelaying, state.delaying)
            }
            pause(ms, watching: fd)
            state.withLock { $0.delaying -= 1 }
            send(fd, status: 200, body: file.data)
        case "drip":
            guard parts.count > 1, let ms = Int(parts[1]), let file = file(from: 2) else { return send(fd, status: 404, body: Data()) }
            state.withLock { state in
                state.delaying += 1
                state.peakDelaying = max(state.peakDelaying, state.delaying)
            }
            defer { state.withLock { $0.delaying -= 1 } }
            writeHead(fd, status: 200, headers: ["Content-Length": "\(file.data.count)"])
            let piece = max(1, (file.data.count + 7) / 8)
            for start in stride(from: 0, to: file.data.count, by: piece) {
                guard write(fd, file.data[start..<min(file.data.count, start + piece)]) else { return }
                pause(ms, watching: fd)
            }
        case "stall", "disconnect":
            guard let file = file(from: 1) else { return send(fd, status: 404, body: Data()) }
            writeHead(fd, status: 200, headers: ["Content-Length": "\(file.data.count)"])
            _ = write(fd, file.data.prefix(file.data.count / 2))
            if parts[0] == "stall" { pause(60_000, watching: fd) }
        case "short":
            guard let file = file(from: 1) else { return send(fd, status: 404, body: Data()) }
            writeHead(fd, status: 200, headers: ["Content-Length": "\(file.data.count + 1_000)"])
            _ = write(fd, file.data)
        case "flaky":
            guard parts.count > 2, let failures = Int(parts[1]), let code = Int(parts[2]), let file = file(from: 3) else {
                return send(fd, status: 404, body: Data())
            }
            if hit <= failures { return send(fd, status: code, headers: ["Retry-After": "0"], body: Data("try again".utf8)) }
            send(fd, status: 200, body: file.data)
        case "redirect":
            guard parts.count > 1, let remaining = Int(parts[1]) else { return send(fd, status: 404, body: Data()) }
            let rest = parts.dropFirst(2).joined(separator: "/")
            let next = remaining > 1 ? "/redirect/\(remaining - 1)/\(rest)" : "/\(rest)"
            send(fd, status: 302, headers: ["Location": next], body: Data())
        case "loop":
            send(fd, status: 302, headers: ["Location": "/loop"], body: Data())
        case "to":
            guard parts.count == 2, let target = parts[1].removingPercentEncoding else { return send(fd, status: 404, body: Data()) }
            send(fd, status: 302, headers: ["Location": target], body: Data())
        case "gzip":
            guard let file = file(from: 1) else { return send(fd, status: 404, body: Data()) }
            send(fd, status: 200, headers: ["Content-Encoding": "gzip"], body: Gzip.stored(file.data))
        case "huge":
            let total = Int(parts.count > 1 ? parts[1] : "0") ?? 0
            writeHead(fd, status: 200, headers: ["Content-Length": "\(total)"])
            let zeros = Data(count: 65_536)
            var sent = 0
            while sent < total, write(fd, zeros.prefix(total - sent)) { sent += min(65_536, total - sent) }
        case "html":
            send(fd, status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>Sign in</body></html>".utf8))
        default:
            send(fd, status: 404, body: Data("not found".utf8))
        }
    }

    func send(_ fd: Int32, status: Int, headers: [String: String] = [:], body: Data) {
        writeHead(fd, status: status, headers: headers.merging(["Content-Length": "\(body.count)"]) { a, _ in a })
        if write(fd, body) { state.withLock { $0.bodyBytes += body.count } }
    }

    func writeHead(_ fd: Int32, status: Int, headers: [String: String]) {
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        _ = write(fd, Data((head + "\r\n").utf8))
    }

    /// Writes everything, or returns `false` when the client has gone.
    func write(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    /// Waits up to `ms`, returning early when the client closes or the server stops.
    func pause(_ ms: Int, watching fd: Int32) {
        let deadline = Date().addingTimeInterval(Double(ms) / 1000)
        while Date() < deadline, !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(min(20, max(1, Int(deadline.timeIntervalSinceNow * 1000))))) > 0 {
                var byte: UInt8 = 0
                if recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 { return }  // the client closed
            }
        }
    }
}
