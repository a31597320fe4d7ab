import Foundation
import OspreyCodec
import OspreyTesting
import Testing

/// The demo as `make demo` serves it: `osprey-server --gallery` over the photographs
/// `Demo/make_samples.sh` takes from Debian's lomiri-wallpapers-16.04 (installed by `make test`)
/// and the files it makes from them.
// Run only with OSPREY_DEMO=1: `make test` runs it after the suite, beside the soak. Making the
// samples, Chromium and the server's decodes of twelve photographs took both cores for a minute
// and held pool threads, and a time-bounded network test beside them missed its bound.
@Suite("Demo gallery", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["OSPREY_DEMO"] == "1", "make test runs the demo after the suite (OSPREY_DEMO=1)"))
struct DemoTests {
    static let key = "943b421c9eb07c83", salt = "520f986b998545b4"
    static let root = ServerProcess.buildFolder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The samples, made once for the suite.
    static let samples: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-demo-samples-\(UUID().uuidString)")
        let script = Process()
        script.executableURL = root.appendingPathComponent("Demo/make_samples.sh")
        script.arguments = [folder.path]
        let text = try output(of: script)
        guard script.terminationStatus == 0 else { throw CurlGetError.failed("make_samples.sh: \(text)") }
        return folder
    }

    /// osprey-server with the gallery, as `make demo` starts it (on a free port).
    static func demo() throws -> ServerProcess {
        try ServerProcess.start(arguments: ["--key", key, "--salt", salt, "--gallery", try samples.get().path,
                                       "--auto-format", "webp"])
    }

    @Test func aBrowserShowsEveryPhotographAndAReloadIsAnsweredFromKeptAnswers() throws {
        let demo = try Self.demo()
        defer { #expect(demo.stop() == 0) }
        let chromium = try #require(["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                    "Chromium is missing: `make test` installs Debian's chromium")
        // .build/demo-gallery.png, beside the build folders.
        let screenshot = Self.root.appendingPathComponent(".build/demo-gallery.png")
        let profile = demo.folder.appendingPathComponent("profile")
        let first = try Self.browse(chromium, demo.base + "/", profile: profile)
        let (total, loaded) = (Self.attribute("data-total", in: first), Self.attribute("data-loaded", in: first))
        #expect(Self.attribute("data-ready", in: first) == "yes", "the page's script ran to its end")
        #expect(total == "12" && loaded == total, "every tile loaded: \(loaded ?? "?") of \(total ?? "?")")
        #expect(Self.values("data-tier", in: first) == Array(repeating: "network", count: 12), "the first visit fetches every source")
        #expect(Set(Self.values("data-format", in: first)) == ["image/webp"], "Chromium accepts WebP")
        for kind in ["AVIF", "HEIC", "GIF", "→ sRGB", "6 frames", "CC BY 4.0"] { #expect(first.contains(kind), "\(kind) shown") }
        let reload = try Self.browse(chromium, demo.base + "/", profile: profile, screenshot: screenshot)
        let tiers = Self.values("data-tier", in: reload)
        #expect(tiers.count == 12 && tiers.allSatisfy { $0 == "answer-memory" }, "a reload is answered as kept: \(tiers)")
        #expect(Self.values("data-failed", in: reload).isEmpty)
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 100_000, "screenshot saved at \(screenshot.path)")
    }

    @Test func theSampleOriginServesItsSamplesAndTheThumbnailsAreSigned() throws {
        let demo = try Self.demo()
        defer { #expect(demo.stop() == 0) }
        let page = String(decoding: try demo.get("/").body, as: UTF8.self)
        let path = try #require(page.components(separatedBy: "data-src=\"").dropFirst().first?.prefix { $0 != "\"" })
        let thumbnail = try demo.get(String(path), headers: ["Accept: image/avif,image/webp,*/*"])
        #expect(thumbnail.status == 200 && thumbnail.headers.contains("content-type: image/webp"))
        #expect(try ImageCodec().info(.data(thumbnail.body)).width == 320)
        let unsigned = String(path).replacingOccurrences(of: #"^/[^/]+/"#, with: "/insecure/", options: .regularExpression)
        #expect(try demo.get(unsigned).status == 403, "the server was started with keys")
        let original = try demo.get("/origin/bridge.jpg")
        #expect(original.status == 200 && original.headers.contains("content-type: image/jpeg") && original.body.count > 500_000)
        for missing in ["/origin/missing.jpg", "/origin/SOURCES.tsv", "/origin/..%2FSOURCES.tsv"] {
            #expect(try demo.get(missing).status == 404, "\(missing)")
        }
    }

    @Test func sigtermStopsCleanlyAndTheCacheStaysValid() throws {
        let demo = try Self.demo()
        #expect(try demo.get("/").status == 200)
        let page = String(decoding: try demo.get("/").body, as: UTF8.self)
        let path = try #require(page.components(separatedBy: "data-src=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(try demo.get(String(path)).status == 200, "something in the cache")
        #expect(demo.stop() == 0)
        let log = try String(contentsOf: demo.log, encoding: .utf8)
        #expect(log.contains("osprey-server: stopped"))
        let osprey = Process()
        osprey.executableURL = ServerProcess.buildFolder.appendingPathComponent("osprey")
        osprey.arguments = ["cache", "verify", "--cache-dir", demo.folder.appendingPathComponent("cache").path]
        osprey.standardOutput = FileHandle.nullDevice
        try osprey.run()
        osprey.waitUntilExit()
        #expect(osprey.terminationStatus == 0, "the index is consistent after the shutdown")
    }

    @Test func theREADMECommandLineExamplesRunAsWritten() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "<!-- cli-examples -->").dropFirst().first?
            .components(separatedBy: "<!-- /cli-examples -->").first, "README marks its CLI examples")
        let script = section.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }.joined()
        #expect(script.contains("osprey load") && script.contains("osprey prefetch"))
        // The examples name the demo at port 8080, as `make demo` serves it; the test's demo
        // listens on a free port, and the examples are pointed there.
        let demo = try Self.demo()
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
        let text = try Self.output(of: shell)
        #expect(shell.terminationStatus == 0, "the README's examples failed:\n\(text)")
        for file in ["photo.jpg", "thumb.webp", "urls.txt", "card.png", "osprey.bash", "slideshow-small.webp", "slideshow.png", "kept.png",
                     "thumb.avif", "thumbs/photo_64x64.webp", "thumbs/photo_128x128.webp", "thumbs/slideshow_64x64.webp",
                     "thumbs/slideshow_128x128.webp"] {
            #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent(file).path), "\(file) written")
        }
        #expect(text.contains("\"tier\":\"network\"") && text.contains("\"completed\":2"))
        #expect(text.contains("frames: 6"), "the demo's animated sample")
        #expect(text.contains("\"converted\":2") && text.contains("\"outputs\":4"), "one folder of thumbnails, two sizes each")
        let small = try ImageCodec().info(.file(path: work.appendingPathComponent("slideshow-small.webp").path))
        #expect(small.frameCount == 6 && small.width == 120, "the resized animation keeps its frames")
    }

    /// What `process` printed on both of its outputs, once it has exited.
    static func output(of process: Process) throws -> String {
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// The DOM after the page's scripts ran, from headless Chromium; optionally a screenshot.
    static func browse(_ chromium: String, _ url: String, profile: URL, screenshot: URL? = nil) throws -> String {
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                         "--user-data-dir=\(profile.path)", "--virtual-time-budget=120000", "--window-size=1100,1400"]
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
        values(name, in: dom).first
    }

    static func values(_ name: String, in dom: String) -> [String] {
        dom.components(separatedBy: " \(name)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
