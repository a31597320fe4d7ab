#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyCodec
import OspreyDomain
import OspreyServer
import OspreyTesting
import Testing

/// osprey-server against clients that hold connections open, slow origins and busy workers
/// (Docs/SECURITY.md).
extension ServerProcessTests {
    @Test func aKeyAndUnsignedURLsCannotBeConfiguredTogether() async throws {
        let binary = ServerProcess.buildFolder.appendingPathComponent("osprey-server").path
        let both = try ChildProcess.run(binary, ["--port", "\(try LoopbackPort.free())", "--key", Self.key, "--salt", Self.salt, "--allow-unsigned"])
        #expect(both.status == 64 && both.output.contains("--allow-unsigned with --key"), "\(both.output)")
        // An app that sets both in its configuration cannot build the service: it would
        // serve signed URLs only, which is not what it asked for.
        #expect(throws: ServerConfigurationError.unsignedWithKeys) { try ServerUnderTest { $0.allowsUnsigned = true } }
    }

    /// How long `GET /health` takes on a new connection to the server on `port`.
    static func health(port: Int) -> Duration {
        let start = ContinuousClock.now
        let socket = connect(port: port)
        let request = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        while recv(socket, &buffer, buffer.count, 0) > 0 {}
        close(socket)
        return ContinuousClock.now - start
    }

    /// A TCP connection to 127.0.0.1:`port`, or -1.
    static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close(fd); return -1 }
        return fd
    }

    /// Waits up to `limit` for the server to close each of `sockets` (a read gives 0 or an
    /// error); the ones still open at the end.
    static func stillOpen(_ sockets: [Int32], within limit: Duration) -> [Int32] {
        var open = Set(sockets)
        let deadline = ContinuousClock.now + limit
        while !open.isEmpty, ContinuousClock.now < deadline {
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 200) > 0 else { continue }
            for entry in polled where entry.revents != 0 {
                var byte: UInt8 = 0
                if recv(entry.fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { open.remove(entry.fd) }
            }
        }
        return Array(open)
    }

    @Test func idleAndTricklingConnectionsAreClosedAfterTheIdleTimeout() throws {
        let server = try ServerProcess.start(arguments: ["--allow-unsigned", "--idle-timeout", "1"], executable: "osprey-server", readyPath: "/health")
        defer { #expect(server.stop() == 0) }
        let idle = (0..<200).map { _ in Self.connect(port: server.port) }
        defer { idle.forEach { close($0) } }
        #expect(idle.allSatisfy { $0 >= 0 }, "200 connections open")
        // A head that trickles in a byte at a time is not a request: the timer runs from the last whole part.
        let trickling = Self.connect(port: server.port)
        defer { close(trickling) }
        let started = ContinuousClock.now
        var trickleClosed = false
        for byte in Array("GET /health HTTP/1.1\r\nHost: a\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "x"), count: 40) {
            var value = byte
            if send(trickling, &value, 1, Int32(MSG_NOSIGNAL)) != 1 { trickleClosed = true; break }
            if !Self.stillOpen([trickling], within: Sanitizer.scaled(.milliseconds(100))).contains(trickling) { trickleClosed = true; break }
        }
        #expect(trickleClosed && ContinuousClock.now - started < Sanitizer.scaled(.seconds(5)), "a trickling head is closed: \(ContinuousClock.now - started)")
        #expect(Self.stillOpen(idle, within: Sanitizer.scaled(.seconds(15))).isEmpty, "every idle connection closed")
        #expect(try server.get("/health").status == 200, "and the server still answers")
    }

    @Test func aDrippingOriginIsAnswered503ByTheDeadlineWhileOthersAreServed() throws {
        let origin = try TestHTTPServer(), drip = try TestHTTPServer()
        defer { origin.stop(); drip.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        origin.serve("photo.jpg", photo, contentType: "image/jpeg")
        for index in 0..<8 { drip.serve("p\(index).jpg", photo, contentType: "image/jpeg") }
        // Eight different sources on an origin that sends a piece of each every 2 s (14 s in all).
        var specs = (0..<8).map { Spec(url: drip.url("/drip/2000/files/p\($0).jpg").absoluteString, width: 32, height: 32) }
        specs += [Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 40, height: 40),
                  Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 50, height: 50)]
        let paths = try Self.paths(specs)
        let server = try ServerProcess.start(arguments: ["--key", Self.key, "--salt", Self.salt, "--allowed-source", origin.url("/").absoluteString,
                                                        "--allowed-source", drip.url("/").absoluteString, "--timeout", "2",
                                                        "--download-timeout", "30"],
                                             executable: "osprey-server", readyPath: "/health")
        defer { #expect(server.stop() == 0) }
        #expect(try server.get(paths[8]).status == 200, "answered once, so kept")
        let answers = Locked([(status: Int, seconds: Double)]())
        let group = DispatchGroup()
        let base = server.base
        for path in paths.prefix(8) {
            DispatchQueue.global().async(group: group) {
                let start = ContinuousClock.now
                let status = (try? CurlGet.run(base + path).status) ?? 0
                let elapsed = ContinuousClock.now - start
                answers.withLock { $0.append((status, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)) }
            }
        }
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(10))
        // The server's load slots are six transfers and a decode per core; one origin may hold all but two.
        let share = 6 + ProcessInfo.processInfo.activeProcessorCount - 2
        while drip.requests.count < min(8, share) - 1, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        // Meanwhile a kept answer, /health and a load from another origin go on.
        // Timed over a socket of the test's own, so that starting curl is not counted.
        func timed(_ path: String) throws -> (status: Int, duration: Duration) {
            let start = ContinuousClock.now
            let socket = Self.connect(port: server.port)
            defer { close(socket) }
            let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            _ = request.withUnsafeBufferPointer { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var answer: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            let status = Int(String(decoding: answer.prefix(12).dropFirst(9), as: UTF8.self)) ?? 0
            return (status, ContinuousClock.now - start)
        }
        let kept = try timed(paths[8]), health = try timed("/health"), other = try timed(paths[9])
        // Not held up by the dripping loads: inside the 2 s deadline they are held to (a bound of
        // the test's own making, not of how fast the machine is today).
        let serverTimeout = Sanitizer.scaled(.seconds(2))
        #expect(kept.status == 200 && kept.duration < serverTimeout, "a kept answer: \(kept.duration)")
        #expect(health.status == 200 && health.duration < serverTimeout, "/health: \(health.duration)")
        #expect(other.status == 200 && other.duration < serverTimeout, "another origin's load finds a slot: \(other.duration)")
        group.wait()
        #expect(drip.peakConcurrentDelays <= share && drip.peakConcurrentDelays < 8,
                "the dripping origin held its share of the load slots at most: \(drip.peakConcurrentDelays) at once")
        let results = answers.withLock { $0 }
        #expect(results.count == 8 && results.allSatisfy { $0.status == 503 }, "\(results)")
        #expect(results.allSatisfy { $0.seconds < Sanitizer.scaled(2.0 + 3) }, "each by its 2 s deadline: \(results)")
    }

    @Test func healthIsAnsweredWhileImagesAreDecodedAndEncoded() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/HMD_Nokia_8.3_5G.jpg"))
        for index in 0..<6 { origin.serve("p\(index).jpg", photo, contentType: "image/jpeg") }
        // Full size as PNG: seconds of decoding and encoding each, on both cores.
        let paths = try Self.paths((0..<6).map { Spec(url: origin.url("/files/p\($0).jpg").absoluteString, extension_: "png") })
        let server = try Self.server(origin, ["--timeout", "120"])
        defer { #expect(server.stop() == 0) }
        // /health once the server is idle: the reference for how fast it can answer at all.
        let idle = (0..<5).map { _ in Self.health(port: server.port) }.max()!
        let group = DispatchGroup(), base = server.base
        let statuses = Locked([Int]())
        let started = ContinuousClock.now
        let firstAnswer = Locked<Duration?>(nil)
        for path in paths {
            DispatchQueue.global().async(group: group) {
                let status = (try? CurlGet.run(base + path).status) ?? 0
                statuses.withLock { $0.append(status) }
                firstAnswer.withLock { $0 = $0 ?? ContinuousClock.now - started }
            }
        }
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(30))
        while origin.requests.count < 2, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.3)  // the first images are being decoded
        var slowest = Duration.zero
        for _ in 0..<5 {
            slowest = max(slowest, Self.health(port: server.port))
            Thread.sleep(forTimeInterval: 0.1)
        }
        let busy = statuses.withLock { $0.count } < 6
        group.wait()
        #expect(busy, "the images were still being made while /health was asked")
        // Compared with what the same machine does in the same test, not with a clock: far
        // below the time one image takes (a loaded machine slows both alike).
        let image = try #require(firstAnswer.withLock { $0 })
        #expect(slowest * 10 < image, "/health at worst \(slowest) while images were made (idle \(idle)); the first image took \(image)")
        #expect(statuses.withLock { $0 } == [Int](repeating: 200, count: 6))
    }

    @Test func aURLCannotForceAnEncodeTheServerDoesNotOffer() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let source = origin.url("/files/photo.jpg").absoluteString
        let paths = try Self.paths([Spec(url: source, width: 48, height: 48, extension_: "avif"),
                                    Spec(url: source, width: 48, height: 48, extension_: "jxl")])
        let plain = try Self.server(origin, ["--offer-only-format", "avif", "--offer-only-format", "jxl", "--auto-format", "webp"])
        let avif = try plain.get(paths[0], headers: ["Accept: image/webp,*/*"])
        let jxl = try plain.get(paths[1], headers: ["Accept: */*"])
        #expect(plain.stop() == 0)
        #expect(avif.status == 200 && avif.headers.contains("content-type: image/webp") && avif.headers.contains("vary: accept"), "\(avif.headers)")
        #expect(jxl.status == 200 && jxl.headers.contains("content-type: image/jpeg"), "\(jxl.headers)")
        let offering = try Self.server(origin, ["--offer-only-format", "avif", "--offer-only-format", "jxl", "--auto-format", "avif", "--auto-format", "jxl"])
        defer { #expect(offering.stop() == 0) }
        #expect(try offering.get(paths[0], headers: ["Accept: image/webp,*/*"]).headers.contains("content-type: image/avif"))
        #expect(try offering.get(paths[1]).headers.contains("content-type: image/jxl"))
    }
}
