import Foundation
import OspreyTesting
import Testing

/// Runs the built `osprey` binary as a user would.
@Suite("osprey command line")
struct CLITests {
    /// The `osprey` executable beside the test bundle in the build folder.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osprey")
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("Every command's help has an example", arguments: [
        ["info"], ["convert"], ["fetch"], ["load"], ["prefetch"], ["fourcut"], ["completion"],
        ["cache", "stats"], ["cache", "list"], ["cache", "clean"], ["cache", "clear"], ["cache", "verify"], ["cache", "invalidate"],
    ])
    func everyCommandHasHelpWithAnExample(_ command: [String]) throws {
        let (status, output) = try Self.run(command + ["--help"])
        #expect(status == 0)
        #expect(output.contains("Example:") && output.contains("osprey " + command.joined(separator: " ")), "\(command)")
    }

    @Test func librariesAreLoadedOnlyForTheWorkThatNeedsThem() throws {
        // glibc's loader names every library it maps when LD_DEBUG=files.
        let trace = ["LD_DEBUG": "files"]
        let photo = try Corpus.file("photos/jolla.jpg").path
        let jpeg = try Self.run(["info", photo], environment: trace)
        #expect(jpeg.status == 0)
        #expect(jpeg.output.contains("file=libjpeg"), "the trace is there")
        #expect(!jpeg.output.contains("file=libavif") && !jpeg.output.contains("file=libheif")
                && !jpeg.output.contains("file=libdav1d") && !jpeg.output.contains("file=libde265"))
        #expect(!jpeg.output.contains("file=libcurl") && !jpeg.output.contains("file=libgssapi"), "no HTTP, no libcurl")
        let folder = try TemporaryFolder.make("loading")
        defer { try? FileManager.default.removeItem(at: folder) }
        let thumbnail = try Self.run(["convert", photo, "--size", "64x64", "-o", folder.appendingPathComponent("t.jpg").path], environment: trace)
        #expect(thumbnail.status == 0, "\(thumbnail.output.suffix(300))")
        for library in ["libtiff", "libcrypto", "libssl", "libsqlite3", "libhiredis", "libcurl"] {
            #expect(!thumbnail.output.contains("file=\(library)"), "a local JPEG thumbnail loads no \(library)")
        }
        let tiff = try Self.run(["convert", photo, "--size", "64x64", "-o", folder.appendingPathComponent("t.tif").path], environment: trace)
        #expect(tiff.status == 0 && tiff.output.contains("file=libtiff"), "\(tiff.output.suffix(300))")
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.serve("photo.jpg", try Data(contentsOf: try Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fetched-\(UUID()).jpg").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let remote = try Self.run(["fetch", server.url("/files/photo.jpg").absoluteString, "-o", output], environment: trace)
        #expect(remote.status == 0, "\(remote.output.suffix(300))")
        #expect(remote.output.contains("file=libcurl"))
        let avif = try Self.run(["info", try Corpus.file("avif/immich_10bit-HDR-P3-nclx.avif").path], environment: trace)
        #expect(avif.status == 0)
        #expect(avif.output.contains("file=libavif") && avif.output.contains("file=libdav1d"))
        #expect(!avif.output.contains("file=libheif"))
    }

    @Test func completionScriptsComeFromTheArgumentParser() throws {
        for shell in ["bash", "zsh", "fish"] {
            let (status, output) = try Self.run(["completion", shell])
            #expect(status == 0 && output.contains("prefetch") && output.contains("fourcut"), "\(shell)")
        }
        #expect(try Self.run(["completion", "tcsh"]).status == 64)
    }

    @Test func helpDescribesTheToolWithAnExample() throws {
        let (status, output) = try Self.run(["--help"])
        #expect(status == 0)
        #expect(output.contains("USAGE: osprey"))
        #expect(output.contains("Example:"))
    }

    @Test func versionPrintsASemanticVersion() throws {
        let (status, output) = try Self.run(["--version"])
        #expect(status == 0)
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test func unknownOptionIsAUsageError() throws {
        let (status, output) = try Self.run(["--no-such-flag"])
        #expect(status == 64, "EX_USAGE")
        #expect(output.contains("Unknown option"))
    }
}

/// `osprey info` and `osprey convert` on real files.
@Suite("osprey info and convert")
struct CodecCommandTests {
    static var osprey: String { CLITests.executable.path }
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-cli-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @Test func infoReportsTheDisplayedSizeAsJSON() throws {
        let file = try Corpus.file("exif-orientation/Portrait_6.jpg").path
        let outcome = try ChildProcess.run(Self.osprey, ["info", file, "--json"])
        #expect(outcome.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        #expect(json?["format"] as? String == "jpeg")
        #expect(json?["width"] as? Int == 1200 && json?["height"] as? Int == 1800)
        #expect(json?["orientation"] as? Int == 6)
        #expect(json?["hasAlpha"] as? Bool == false && json?["frameCount"] as? Int == 1)
    }

    @Test func convertWritesTheOutputsFormatAtTheTargetSize() throws {
        let input = try Corpus.file("photos/jolla.jpg").path
        for (name, format) in [("thumb.jpg", "jpeg"), ("thumb.png", "png"), ("thumb.webp", "webp")] {
            let output = Self.folder.appendingPathComponent(name).path
            let outcome = try ChildProcess.run(Self.osprey, ["convert", input, "--size", "320x320", "-o", output])
            #expect(outcome.status == 0, "\(outcome.output)")
            let info = try ChildProcess.run(Self.osprey, ["info", output, "--json"])
            #expect(info.output.contains("\"format\":\"\(format)\""))
            #expect(info.output.contains("\"width\":320") || info.output.contains("\"height\":320"), "\(info.output)")
        }
        let filled = Self.folder.appendingPathComponent("fill.png").path
        #expect(try ChildProcess.run(Self.osprey, ["convert", input, "--size", "100x100", "--mode", "fill", "-o", filled]).status == 0)
        #expect(try ChildProcess.run(Self.osprey, ["info", filled, "--json"]).output.contains("\"height\":100,\"orientation\":1,\"width\":100"))
    }

    @Test func badInputExitsWith65AndAMissingFileWith66() throws {
        let html = Self.folder.appendingPathComponent("page.jpg")
        try Data("<html>not an image</html>".utf8).write(to: html)
        let bad = try ChildProcess.run(Self.osprey, ["convert", html.path, "-o", Self.folder.appendingPathComponent("x.png").path])
        #expect(bad.status == 65)
        #expect(bad.output == "osprey: not an image: the data starts with `<html>not an ima`\n")
        let missing = try ChildProcess.run(Self.osprey, ["info", "/nonexistent/photo.jpg"])
        #expect(missing.status == 66)
        #expect(try ChildProcess.run(Self.osprey, ["convert", html.path, "-o", "out.svg"]).status == 64)
    }

    @Test func infoMakesPlaceholdersWhenAsked() throws {
        let outcome = try ChildProcess.run(Self.osprey, ["info", try Corpus.file("photos/jolla.jpg").path, "--json", "--placeholder"])
        #expect(outcome.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let blurHash = object["blurHash"] as? String ?? "", thumbHash = object["thumbHash"] as? String ?? ""
        let average = object["average"] as? String ?? ""
        #expect(blurHash.count == 28)
        #expect(object["width"] as? Int == 3264)
        let hashBytes = Data(base64Encoded: thumbHash)?.count ?? 0
        #expect(hashBytes >= 20)
        #expect(average.hasPrefix("#") && average.hasSuffix("ff") && average.count == 9)
    }

    @Test func anAnimatedGIFIsWrittenAsAnAnimatedGIF() throws {
        let out = Self.folder.appendingPathComponent("banana.gif")
        let converted = try ChildProcess.run(Self.osprey, ["convert", try Corpus.file("gif/kingfisher_dancing-banana.gif").path, "--size", "100x100",
                                                           "-o", out.path, "--overwrite"])
        #expect(converted.status == 0, "\(converted.output)")
        let info = try ChildProcess.run(Self.osprey, ["info", out.path]).output
        #expect(info.contains("format: gif") && info.contains("frames: 8"), "\(info)")
    }

    @Test func headersClaiming65000SquareAreRefusedWithoutHoldingMemory() throws {
        let png = Self.folder.appendingPathComponent("bomb.png")
        try CraftedImages.png(width: 65_000, height: 65_000).write(to: png)
        let jpeg = Self.folder.appendingPathComponent("bomb.jpg")
        try CraftedImages.jpeg(from: Data(contentsOf: Corpus.file("jpeg/libjpeg-turbo/testorig.jpg")), width: 65_000, height: 65_000).write(to: jpeg)
        for file in [png, jpeg] {
            let outcome = try ChildProcess.run(Self.osprey, ["convert", file.path, "-o", Self.folder.appendingPathComponent("out.png").path])
            #expect(outcome.status == 65)
            #expect(outcome.output.contains("image is 65000x65000, over the limit of 100 megapixels"))
            #expect(outcome.peakMemory < 50_000_000 + Sanitizer.memoryOverhead, "peak memory \(outcome.peakMemory) bytes")
        }
    }

    @Test func animationsClaimingTenThousandFramesAreRefusedWithoutHoldingMemory() throws {
        let cases: [(String, Data, String)] = [
            ("bomb.gif", CraftedImages.gif(frames: 10_000, side: 65_535), "image is 65535x65535, over the limit of 100 megapixels"),
            ("frames.gif", CraftedImages.gif(frames: 10_000, side: 4_000), "animation has 1001 frames or more, over the limit of 1000"),
            ("bomb.apng", CraftedImages.apng(width: 65_535, height: 65_535, frames: 10_000), "image is 65535x65535, over the limit of 100 megapixels"),
            ("frames.apng", CraftedImages.apng(width: 4_000, height: 4_000, frames: 10_000), "animation has 10000 frames or more, over the limit of 1000"),
        ]
        for (name, data, message) in cases {
            let file = Self.folder.appendingPathComponent(name)
            try data.write(to: file)
            let outcome = try ChildProcess.run(Self.osprey, ["convert", file.path, "-o", Self.folder.appendingPathComponent("out.webp").path])
            #expect(outcome.status == 65, "\(name): \(outcome.output)")
            #expect(outcome.output.contains(message), "\(name): \(outcome.output)")
            #expect(outcome.peakMemory < 50_000_000 + Sanitizer.memoryOverhead, "\(name): peak memory \(outcome.peakMemory) bytes")
        }
    }

    /// Truncated files, boxes whose sizes lie, and declared sizes that are huge or that the
    /// coded image does not have: typed errors (or an image), never a crash, within 100 MB.
    @Test func damagedAVIFAndHEICFilesGetTypedErrorsInLittleMemory() throws {
        for name in ["avif/linku_fox.profile0.8bpc.yuv420.avif", "avif/libavif_sofa_grid1x5_420.avif", "heic/nuke_img_751.heic"] {
            let original = try Data(contentsOf: Corpus.file(name))
            var variants: [(String, Data, Int32?, String?)] = [
                ("huge", CraftedImages.heif(original, declaringWidth: 60_000, height: 60_000), 65, "over the limit"),
                ("small", CraftedImages.heif(original, declaringWidth: 64, height: 48), 65, nil),
            ]
            for fraction in [10, 50, 90] { variants.append(("cut\(fraction)", original.prefix(original.count * fraction / 100), 65, nil)) }
            for box in ["meta", "iloc", "ipco", "ispe", "mdat"] {
                variants.append(("\(box)-short", CraftedImages.heif(original, settingSizeOf: box, to: 9), nil, nil))
                variants.append(("\(box)-long", CraftedImages.heif(original, settingSizeOf: box, to: 0x7FFF_FFF0), nil, nil))
            }
            for (variant, data, status, message) in variants {
                let file = Self.folder.appendingPathComponent("damaged-\(variant).\(name.hasSuffix("heic") ? "heic" : "avif")")
                try data.write(to: file)
                let outcome = try ChildProcess.run(Self.osprey, ["convert", file.path, "--size", "200x200", "-o", Self.folder.appendingPathComponent("d.png").path])
                #expect(outcome.status == 0 || outcome.status == 65, "\(name) \(variant): \(outcome.output)")
                if let status { #expect(outcome.status == status, "\(name) \(variant): \(outcome.output)") }
                if let message { #expect(outcome.output.contains(message), "\(name) \(variant): \(outcome.output)") }
                #expect(outcome.peakMemory < 100_000_000 + Sanitizer.memoryOverhead, "\(name) \(variant): peak \(outcome.peakMemory) bytes")
            }
        }
    }

    @Test func corruptFilesNeverCrashTheTool() throws {
        for name in ["pngsuite/xc1n0g08.png", "pngsuite/xlfn0g04.png", "jpeg/sharp/truncated.jpg", "jpeg/sharp/corrupt-header.jpg"] {
            let outcome = try ChildProcess.run(Self.osprey, ["convert", try Corpus.file(name).path, "-o", Self.folder.appendingPathComponent("c.png").path])
            #expect(outcome.status == 65, "\(name): \(outcome.output)")
            #expect(outcome.output.hasPrefix("osprey: ") && outcome.output.filter { $0 == "\n" }.count == 1, "one line: \(outcome.output)")
        }
    }
}
