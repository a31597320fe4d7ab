import Foundation
import OspreyCodec
import OspreyTesting
import Testing

/// osprey-server started with a typical imgproxy deployment's env file
/// (`Tests/Container/imgproxy.env`), its folder and metrics port moved to the test's own, and
/// asked for URLs imgproxy's URL builder (PyPI's `imgproxy`) makes, signatures cut to
/// `IMGPROXY_SIGNATURE_SIZE` as imgproxy cuts them: the answers' status, format, size and
/// headers are those imgproxy documents.
@Suite("An imgproxy deployment's env file", .serialized)
struct ImgproxyDeploymentTests {
    /// The env file's variables.
    static func environment() throws -> [String: String] {
        let text = try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent("Tests/Container/imgproxy.env"), encoding: .utf8)
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return variables
    }

    /// Paths the builder makes for `local:///{file}` with `advanced` options — or, with no
    /// size, written by hand as `/{advanced…}/plain/local:///{file}`, since the builder's
    /// `rs:…:0:0` would reset a preset's size (in imgproxy too) — signed with the file's first
    /// pair and cut to `size` bytes.
    static func paths(_ specs: [(file: String, advanced: [String], width: Int, height: Int)], size: Int) throws -> [String] {
        let script = """
            import base64, hashlib, hmac, json, sys
            from imgproxy import ImgProxy
            key, salt, size = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3])
            for s in json.load(sys.stdin):
                if s["width"] or s["height"]:
                    path = ImgProxy("local:///" + s["file"], resizing_type="fill", width=s["width"], height=s["height"], advanced=s["advanced"])()
                    path = path[len("/insecure"):]
                else:
                    path = "/" + "/".join(s["advanced"]) + "/plain/local:///" + s["file"]
                digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:size]
                print("/" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode() + path)
            """
        let variables = try environment()
        let key = try #require(variables["IMGPROXY_KEY"]?.split(separator: ",").first), salt = try #require(variables["IMGPROXY_SALT"]?.split(separator: ",").first)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, String(key), String(salt), String(size)]
        let input = Pipe(), output = Pipe()
        python.standardInput = input
        python.standardOutput = output
        try python.run()
        let json = specs.map { ["file": $0.file, "advanced": $0.advanced, "width": $0.width, "height": $0.height] as [String: any Sendable] }
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: json))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "the imgproxy package is installed (make setup)")
        return text.split(separator: "\n").map(String.init)
    }

    @Test func theEnvFileStartsTheServerAndBuiltURLsGetImgproxysAnswers() async throws {
        let images = FileManager.default.temporaryDirectory.appendingPathComponent("imgproxy-env-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: images.appendingPathComponent("photos"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: images) }
        try FileManager.default.copyItem(at: Corpus.file("photos/jolla.jpg"), to: images.appendingPathComponent("photos/jolla.jpg"))
        let metricsPort = try LoopbackPort.free()
        var environment = try Self.environment()
        environment["IMGPROXY_LOCAL_FILESYSTEM_ROOT"] = images.path
        environment["IMGPROXY_PROMETHEUS_BIND"] = "127.0.0.1:\(metricsPort)"
        let variables = environment
        let server = try await onThread { try ServerProcess.start(environment: variables) }
        defer { #expect(server.stop() == 0) }
        let log = try String(contentsOf: server.log, encoding: .utf8)
        #expect(log.contains("\"level\":\"warning\"") && log.contains("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES is not set"),
                "JSON logs, and the safer default said once: \(log.prefix(2000))")

        let paths = try await onThread { try Self.paths([("photos/jolla.jpg", [], 300, 200), ("photos/jolla.jpg", ["pr:thumb"], 0, 0)], size: 8) }
        let webp = try await server.fetch(paths[0], headers: ["Accept: image/avif,image/webp,*/*"])
        #expect(webp.status == 200 && webp.headers.contains("content-type: image/webp"), "IMGPROXY_AUTO_WEBP: \(webp.headers)")
        let info = try ImageCodec().info(.data(webp.body))
        #expect(info.width == 300 && info.height == 200)
        for header in ["cache-control: max-age=86400, public", "vary: accept", "content-disposition: inline; filename=\"jolla.webp\"",
                       "content-security-policy: script-src 'none'", "x-content-type-options: nosniff"] {
            #expect(webp.headers.lowercased().contains(header), "\(header) in \(webp.headers)")
        }
        let jpeg = try await server.fetch(paths[0], headers: ["Accept: */*"])
        #expect(jpeg.status == 200 && jpeg.headers.contains("content-type: image/jpeg"), "the source's format, a preferred one")
        let thumb = try await server.fetch(paths[1], headers: ["Accept: */*"])
        let thumbInfo = try ImageCodec().info(.data(thumb.body))
        #expect(thumb.status == 200 && thumbInfo.width == 160 && thumbInfo.height == 120, "the thumb preset")

        let cut = try #require(paths[0].split(separator: "/").first)
        #expect(cut.count == 11, "an 8-byte signature is 11 characters of base64url")
        let whole = try await server.fetch("/" + String(repeating: "A", count: 43) + paths[0].dropFirst(cut.count + 1))
        #expect(whole.status == 403 && String(decoding: whole.body, as: UTF8.self) == "Forbidden\n")
        let refused = try await onThread { try Self.paths([("../etc/passwd", [], 10, 10)], size: 8)[0] }
        #expect(try await server.fetch(refused).status == 404, "outside the root")
        #expect(try await server.fetch("/unsafe/plain/https://evil.example/a.jpg").status == 403, "unsigned, with keys set")

        // The container's health check: `osprey-server health` with the same settings.
        func health(port: Int) async throws -> Int32 {
            try await onThread {
                let check = Process()
                check.executableURL = ServerProcess.buildFolder.appendingPathComponent("osprey-server")
                check.arguments = ["health"]
                check.environment = variables.merging(["IMGPROXY_BIND": "127.0.0.1:\(port)"]) { $1 }
                check.standardError = FileHandle.nullDevice
                try check.run()
                check.waitUntilExit()
                return check.terminationStatus
            }
        }
        #expect(try await health(port: server.port) == 0)
        #expect(try await health(port: try LoopbackPort.free()) != 0, "nothing listens there")
        let health = try await server.fetch("/health")
        #expect(health.status == 200 && health.headers.lowercased().contains("cache-control: no-cache"))
        let metrics = try await onThread { try CurlGet.run("http://127.0.0.1:\(metricsPort)/metrics", headers: [], scratch: server.folder) }
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(text.contains("requests_total") && text.contains("status_codes_total{status=\"200\"}"), "imgproxy's metric names: \(text.prefix(600))")
        #expect(!text.contains("osprey_"))
    }
}
