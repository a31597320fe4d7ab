import Foundation
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// The one table of settings: every spelling read from it, in precedence, without effects.
@Suite("osprey-server's settings")
struct ServerSettingsTests {
    @Test func flagsWinOverOspreyVariablesWhichWinOverImgproxys() throws {
        let environment = ["IMGPROXY_QUALITY": "60", "OSPREY_QUALITY": "70", "IMGPROXY_TTL": "5", "OSPREY_MAX_AGE": "6",
                           "IMGPROXY_BIND": ":9000", "IMGPROXY_MAX_SRC_FILE_SIZE": "2000000"]
        let (server, _) = try ServerSettings.read(arguments: ["--quality", "75", "--port=9100", "--allow-unsigned", "--use-etag=false"],
                                                  environment: environment)
        #expect(server.service.defaultQuality == 75 && server.service.maxAge == 6)
        #expect(server.host == "0.0.0.0" && server.port == 9100)
        #expect(server.service.maxSourceBytes == 2_000_000, "imgproxy's variable in bytes")
        #expect(server.service.allowsUnsigned && !server.service.usesETags)
        let (megabytes, _) = try ServerSettings.read(arguments: ["--max-source-size", "3", "--allow-unsigned"], environment: [:])
        #expect(megabytes.service.maxSourceBytes == 3_000_000, "the flag in megabytes")
    }

    @Test func aValueOutOfRangeIsNamedAsItWasGiven() throws {
        for (arguments, environment, name) in [(["--quality", "101"], [:], "--quality"), ([], ["OSPREY_QUALITY": "0"], "OSPREY_QUALITY"),
                                               ([], ["IMGPROXY_QUALITY": "1e3"], "IMGPROXY_QUALITY"), (["--nonsense"], [:], "--nonsense"),
                                               (["--timeout", "nan"], [:], "--timeout"), (["--port"], [:], "--port"),
                                               (["--avif"], [:], "--avif")] {
            let error = try? #require(throws: ServerSettingError.self) { try ServerSettings.read(arguments: arguments, environment: environment) }
            #expect(error?.name == name, "\(arguments) \(environment)")
        }
    }

    /// Settings name paths and bytes; nothing is decoded, written or opened until the server is built.
    @Test func readingTheSettingsTouchesNoFile() throws {
        let folder = try TemporaryFolder.make("settings")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let png = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")).base64EncodedString()
        let written = { try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.contains(ContentDigest.hex(Data(base64Encoded: png)!)) } }
        let (server, _) = try ServerSettings.read(
            arguments: ["--cache-dir", cache.path, "--allow-unsigned", "--metrics-bind", "127.0.0.1:0", "--gallery", folder.path],
            environment: ["IMGPROXY_WATERMARK_DATA": png, "IMGPROXY_FALLBACK_IMAGE_DATA": png])
        #expect(!FileManager.default.fileExists(atPath: cache.path), "the disk cache is not opened")
        #expect(try written().isEmpty, "no file written for the images' bytes")
        guard case .url(let watermark)? = server.service.watermark, case .url(let fallback)? = server.service.fallbackImage else {
            Issue.record("the images are kept as their bytes' URLs")
            return
        }
        #expect(watermark.scheme == "data" && fallback.scheme == "data")
        try server.validate()
    }

    @Test func theTableHasOneEntryForEachSpelling() {
        let flags = ServerSettings.table.compactMap(\.flag), ospreyNames = ServerSettings.table.compactMap(\.ospreyName)
        let imgproxyNames = ServerSettings.table.flatMap(\.imgproxyNames)
        #expect(Set(flags).count == flags.count && Set(ospreyNames).count == ospreyNames.count && Set(imgproxyNames).count == imgproxyNames.count)
        let help = ServerSettings.help()
        #expect(help.contains("answered 503") && help.contains("429 with Retry-After"), "help says the statuses sent")
    }

    @Test func theDocsTableIsTheTable() throws {
        let guide = try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent("Docs/SERVER.md"), encoding: .utf8)
        #expect(guide.contains(ServerSettings.markdown()), "Docs/SERVER.md: run .build/debug/osprey-server settings-table")
    }

    /// SERVER.md's list of URL options names every option the parser's table reads.
    @Test func theDocsNameEveryURLOption() throws {
        let guide = try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent("Docs/SERVER.md"), encoding: .utf8)
        let missing = ImgproxyOptions.table.filter { option in
            !option.names.contains { name in ["`\(name)`", "`\(name):", "/\(name)`", "/\(name):"].contains { guide.contains($0) } }
        }.map(\.names)
        #expect(missing.isEmpty, "not in Docs/SERVER.md's options: \(missing)")
    }

    /// `osprey-server health` reads the settings to find the server and asks it: no cache
    /// folder is made, no image decoded, nothing listens.
    @Test func theHealthCheckOpensNothing() throws {
        let folder = try TemporaryFolder.make("health")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache")
        let check = Process()
        check.executableURL = ServerProcess.buildFolder.appendingPathComponent("osprey-server")
        check.arguments = ["health", "--port", String(try LoopbackPort.free()), "--allow-unsigned", "--cache-dir", cache.path,
                           "--gallery", folder.path, "--watermark", folder.appendingPathComponent("missing.png").path]
        check.standardError = FileHandle.nullDevice
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 1, "nothing listens there, and the missing watermark is not read")
        #expect(!FileManager.default.fileExists(atPath: cache.path), "the disk cache is not opened")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written beside it")
    }
}
