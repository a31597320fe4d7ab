import Foundation
import OspreyCodec
import OspreyTesting
import Testing

@Suite("Demo gallery", .serialized)
struct DemoTests {
    @Test func thumbServesProcessedImagesWithValidatorsAndRefusesOtherOrigins() throws {
        let demo = try ServerProcess.start()
        defer { #expect(demo.stop() == 0) }
        let image = demo.base + "/origin/photo-3.jpg"
        let query = "url=\(image.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&w=120&h=90&mode=fill"
        let first = try demo.get("/thumb?" + query)
        #expect(first.status == 200)
        #expect(first.headers.contains("content-type: image/jpeg") && first.headers.contains("cache-control: public, max-age=86400"))
        #expect(first.headers.contains("x-osprey-tier: network"))
        #expect(first.body.starts(with: [0xFF, 0xD8]), "a JPEG")
        let etag = try #require(first.headers.split(separator: "\r\n").first { $0.hasPrefix("etag:") }).dropFirst(6)
        let second = try demo.get("/thumb?" + query, headers: ["If-None-Match: \(etag)"])
        #expect(second.status == 304 && second.headers.contains("x-osprey-tier: memory"))
        let sticker = try demo.get("/thumb?url=\((demo.base + "/origin/sticker-1.png").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&w=64&h=64&mode=fit")
        #expect(sticker.status == 200 && sticker.headers.contains("content-type: image/png"), "alpha stays PNG")

        for refused in ["http://example.com/a.jpg", "http://10.0.0.7/a.jpg", "http://169.254.169.254/latest/meta-data",
                        "http://127.0.0.1:1/origin/photo-3.jpg", "http://localhost:\(demo.port)/origin/photo-3.jpg",
                        "https://127.0.0.1:\(demo.port)/origin/photo-3.jpg", "file:///etc/passwd"] {
            let response = try demo.get("/thumb?url=\(refused.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&w=10&h=10")
            #expect(response.status == 403, "\(refused) refused")
        }
        #expect(try demo.get("/thumb?" + query.replacingOccurrences(of: "w=120", with: "w=0")).status == 400)
        let missing = (demo.base + "/origin/missing.jpg").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(try demo.get("/thumb?url=\(missing)&w=10&h=10").status == 502, "the origin's 404 is a bad gateway")
    }

    @Test func aBrowserLoadsEveryImageAndAReloadReportsCachedTiers() throws {
        let demo = try ServerProcess.start()
        defer { #expect(demo.stop() == 0) }
        let chromium = try #require(["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "Chromium is missing: `make test` installs Debian's chromium")
        // .build/demo-gallery.png, beside the build folders.
        let screenshot = ServerProcess.buildFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("demo-gallery.png")
        let first = try Self.browse(chromium, demo.base + "/", profile: demo.folder.appendingPathComponent("profile"))
        let (total, loaded) = (Self.attribute("data-total", in: first), Self.attribute("data-loaded", in: first))
        #expect(Self.attribute("data-ready", in: first) == "yes", "the page's load event ran")
        #expect(total != nil && total == loaded, "every image loaded: \(loaded ?? "?") of \(total ?? "?")")
        #expect((Int(total ?? "0") ?? 0) >= 11, "ten thumbnails and the card")
        #expect(first.contains("data-tier=\"network\""), "the first visit downloads")
        #expect(first.contains("id=\"card\""))
        let reload = try Self.browse(chromium, demo.base + "/", profile: demo.folder.appendingPathComponent("profile"), screenshot: screenshot)
        let tiers = Self.tiers(in: reload)
        #expect(!tiers.isEmpty && tiers.allSatisfy { $0 == "memory" || $0 == "disk" }, "a reload comes from the caches: \(tiers)")
        #expect(Self.attribute("data-total", in: reload) == Self.attribute("data-loaded", in: reload))
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "screenshot saved at \(screenshot.path)")
    }

    @Test func sigtermStopsCleanlyAndTheCacheStaysValid() throws {
        let demo = try ServerProcess.start()
        #expect(try demo.get("/").status == 200)
        #expect(demo.stop() == 0)
        let log = try String(contentsOf: demo.log, encoding: .utf8)
        #expect(log.contains("disk cache index flushed"))
        let osprey = Process()
        osprey.executableURL = ServerProcess.buildFolder.appendingPathComponent("osprey")
        osprey.arguments = ["cache", "verify", "--cache-dir", demo.folder.appendingPathComponent("cache").path]
        osprey.standardOutput = FileHandle.nullDevice
        try osprey.run()
        osprey.waitUntilExit()
        #expect(osprey.terminationStatus == 0, "the index is consistent after the shutdown")
    }

    @Test func theREADMECommandLineExamplesRunAsWritten() throws {
        let root = ServerProcess.buildFolder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "<!-- cli-examples -->").dropFirst().first?
            .components(separatedBy: "<!-- /cli-examples -->").first, "README marks its CLI examples")
        let script = section.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }.joined()
        #expect(script.contains("osprey load") && script.contains("osprey fourcut"))
        // The examples name the demo at port 8080, as `make demo` serves it; the test's demo
        // listens on a free port, and the examples are pointed there.
        let demo = try ServerProcess.start()
        defer { #expect(demo.stop() == 0) }
        let examples = script.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(demo.port)")
        let work = demo.folder.appendingPathComponent("readme")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-euo", "pipefail", "-c", examples]
        shell.currentDirectoryURL = work
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = ServerProcess.buildFolder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["OSPREY_CACHE_DIR"] = work.appendingPathComponent("cache").path
        shell.environment = environment
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = output
        try shell.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "the README's examples failed:\n\(text)")
        for file in ["photo.jpg", "thumb.webp", "urls.txt", "card.png", "osprey.bash", "spinner-small.webp", "spinner.png", "kept.png", "thumb.avif",
                     "thumbs/photo_64x64.webp", "thumbs/photo_128x128.webp", "thumbs/spinner_64x64.webp", "thumbs/spinner_128x128.webp"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(file).path), "\(file) written")
        }
        #expect(text.contains("\"tier\":\"network\"") && text.contains("\"completed\":2"))
        #expect(text.contains("frames: 12") && text.contains("loops: forever"), "the demo's animated sample")
        #expect(text.contains("\"converted\":2") && text.contains("\"outputs\":4"), "one folder of thumbnails, two sizes each")
        let small = try ImageCodec().info(.file(path: work.appendingPathComponent("spinner-small.webp").path))
        #expect(small.frameCount == 12 && small.width == 120, "the resized animation keeps its frames")
    }

    /// The DOM after the page's scripts ran, from headless Chromium; optionally a screenshot.
    static func browse(_ chromium: String, _ url: String, profile: URL, screenshot: URL? = nil) throws -> String {
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                         "--user-data-dir=\(profile.path)", "--virtual-time-budget=30000", "--window-size=1280,1800"]
        if let screenshot { arguments += ["--screenshot=\(screenshot.path)"] } else { arguments += ["--dump-dom"] }
        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: chromium)
        browser.arguments = arguments + [url]
        let out = Pipe()
        browser.standardOutput = out
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        browser.waitUntilExit()
        guard screenshot != nil else { return dom }
        // A screenshot run prints no DOM: read it once more for the checks.
        return try browse(chromium, url, profile: profile)
    }

    static func attribute(_ name: String, in dom: String) -> String? {
        guard let range = dom.range(of: name + "=\"") else { return nil }
        return String(dom[range.upperBound...].prefix { $0 != "\"" })
    }

    static func tiers(in dom: String) -> [String] {
        dom.components(separatedBy: "data-tier=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
