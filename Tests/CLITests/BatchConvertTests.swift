import Foundation
import OspreyTesting
import Testing

/// `osprey convert` over many inputs: folders, lists, several sizes, failures and interruption.
// Serialized: each test blocks a thread of the shared pool while its child process runs.
@Suite("osprey convert over many images", .serialized)
struct BatchConvertTests {
    static var osprey: String { CLITests.executable.path }
    static let photos = ["photos/jolla.jpg", "photos/craft-beer.jpg", "exif-orientation/Portrait_6.jpg"]

    /// A fresh folder with `photos` copied in (and `extra` files written), the corpus untouched.
    static func inputFolder(_ photos: [String] = photos, extra: [String: Data] = [:]) throws -> URL {
        let folder = try TemporaryFolder.make("batch")
        for photo in photos {
            try FileManager.default.copyItem(at: try Corpus.file(photo), to: folder.appendingPathComponent((photo as NSString).lastPathComponent))
        }
        for (name, data) in extra {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return folder
    }

    /// The files under `folder`, by path relative to it.
    static func files(in folder: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))] = data
        }
        return files
    }

    static func size(of file: URL) throws -> (Int, Int) {
        let info = try ChildProcess.run(osprey, ["info", file.path, "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        return (json?["width"] as? Int ?? 0, json?["height"] as? Int ?? 0)
    }

    @Test func aFolderWithSubfoldersGivesEveryImageEverySize() throws {
        let input = try Self.inputFolder(extra: ["nested/deeper/beer.png": try Data(contentsOf: Corpus.file("photos/craft-beer.jpg")),
                                                 "notes.txt": Data("not an image".utf8)])
        let output = input.appendingPathComponent("../\(input.lastPathComponent)-out").standardizedFileURL
        let outcome = try ChildProcess.run(Self.osprey, ["convert", input.path, "--recursive", "--size", "64x64", "--size", "32x48",
                                                         "--mode", "fill", "-o", output.path, "--format", "webp"])
        #expect(outcome.status == 0, "\(outcome.output)")
        let written = Self.files(in: output)
        #expect(Set(written.keys) == ["jolla_64x64.webp", "jolla_32x48.webp", "craft-beer_64x64.webp", "craft-beer_32x48.webp",
                                      "Portrait_6_64x64.webp", "Portrait_6_32x48.webp",
                                      "nested/deeper/beer_64x64.webp", "nested/deeper/beer_32x48.webp"], "\(written.keys.sorted())")
        for name in written.keys {
            let expected = name.hasSuffix("64x64.webp") ? (64, 64) : (32, 48)
            #expect(try Self.size(of: output.appendingPathComponent(name)) == expected, "\(name)")
        }
        // Without --recursive the subfolder is left out.
        let flat = try ChildProcess.run(Self.osprey, ["convert", input.path, "--size", "64x64", "-o", output.path + "-flat"])
        #expect(flat.status == 0)
        #expect(Self.files(in: URL(fileURLWithPath: output.path + "-flat")).count == 3)
    }

    @Test func filesAndAListFromAFileOrStandardInput() throws {
        let input = try Self.inputFolder()
        let list = input.appendingPathComponent("list.txt")
        try Data("\(input.path)/jolla.jpg\n\n\(input.path)/craft-beer.jpg\n".utf8).write(to: list)
        let fromFile = try ChildProcess.run(Self.osprey, ["convert", input.appendingPathComponent("Portrait_6.jpg").path, "--from", list.path,
                                                          "--size", "50x50", "-o", input.path + "/a", "--name", "{name}.{ext}"])
        #expect(fromFile.status == 0, "\(fromFile.output)")
        #expect(Set(Self.files(in: input.appendingPathComponent("a")).keys) == ["jolla.jpg", "craft-beer.jpg", "Portrait_6.jpg"])

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.osprey)
        process.arguments = ["convert", "--from", "-", "--size", "50x50", "-o", input.path + "/b", "--format", "png"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data("\(input.path)/jolla.jpg\n".utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Set(Self.files(in: input.appendingPathComponent("b")).keys) == ["jolla_50x50.png"])
    }

    @Test func aDamagedFileInTheMiddleIsReportedAndTheRestWritten() throws {
        let input = try Self.inputFolder(extra: ["damaged.jpg": try Data(contentsOf: Corpus.file("photos/jolla.jpg")).prefix(300)])
        let output = input.appendingPathComponent("out")
        let outcome = try ChildProcess.run(Self.osprey, ["convert", input.path, "--size", "40x40", "-o", output.path, "--json"])
        #expect(outcome.status == 1, "partial failure: \(outcome.output)")
        let lines = outcome.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let failures = lines.filter { $0["error"] != nil }
        #expect(failures.count == 1 && (failures.first?["input"] as? String)?.hasSuffix("damaged.jpg") == true)
        #expect(failures.first?["status"] as? Int == 65)
        let summary = lines.last
        #expect(summary?["images"] as? Int == 4 && summary?["converted"] as? Int == 3 && summary?["failed"] as? Int == 1)
        #expect(Self.files(in: output).count == 3)
    }

    @Test func anOutputFolderThatCannotBeWrittenIsAFailureNotACrash() throws {
        let input = try Self.inputFolder(["photos/jolla.jpg"], extra: ["sub/b.png": try Data(contentsOf: Corpus.file("pngsuite/basn2c08.png"))])
        // The output folder's place is taken by a file: nothing can be written.
        let blocked = input.appendingPathComponent("blocked")
        try Data().write(to: blocked)
        let none = try ChildProcess.run(Self.osprey, ["convert", input.path, "-r", "--size", "40x40", "-o", blocked.path + "/out"])
        #expect(none.status == 73, "\(none.output)")
        #expect(none.output.contains("cannot create the output folder"))
        // One subfolder's place is taken: that input fails, the other is written.
        let output = input.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data().write(to: output.appendingPathComponent("sub"))
        let partial = try ChildProcess.run(Self.osprey, ["convert", input.path, "-r", "--size", "40x40", "-o", output.path])
        #expect(partial.status == 1, "\(partial.output)")
        #expect(partial.output.contains("b.png: cannot write"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("jolla_40x40.jpg").path))
    }

    @Test func oneJobGivesTheSameBytesAsTwo() throws {
        let input = try Self.inputFolder(Self.photos + ["photos/book-beside-flowers.jpg", "webp/libwebp-test-data/lossless/lossless1.webp"])
        var outputs: [[String: Data]] = []
        for jobs in ["1", "2"] {
            let output = input.appendingPathComponent("jobs-\(jobs)")
            let outcome = try ChildProcess.run(Self.osprey, ["convert", input.path, "--size", "120x120", "--size", "60x60",
                                                             "--jobs", jobs, "-o", output.path, "--format", "webp"])
            #expect(outcome.status == 0, "\(outcome.output)")
            outputs.append(Self.files(in: output))
        }
        #expect(outputs[0].count == 10)
        #expect(outputs[0] == outputs[1])
    }

    @Test func existingOutputsAreKeptUnlessOverwriteIsGiven() throws {
        let input = try Self.inputFolder(["photos/jolla.jpg", "photos/craft-beer.jpg"])
        let output = input.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let kept = output.appendingPathComponent("jolla_30x30.jpg")
        try Data("mine".utf8).write(to: kept)
        let first = try ChildProcess.run(Self.osprey, ["convert", input.path, "--size", "30x30", "-o", output.path, "--json"])
        #expect(first.status == 0)
        #expect(first.output.contains("\"converted\":1") && first.output.contains("\"skipped\":1"), "\(first.output)")
        #expect(try Data(contentsOf: kept) == Data("mine".utf8))
        let second = try ChildProcess.run(Self.osprey, ["convert", input.path, "--size", "30x30", "-o", output.path, "--overwrite"])
        #expect(second.status == 0)
        #expect(try Self.size(of: kept) == (30, 30) || (try Self.size(of: kept)).0 == 30)
    }

    @Test func anInterruptedRunLeavesNoPartialOutput() throws {
        let many = (0..<6).flatMap { _ in ["photos/olympus_e-p3_42_IndexError.jpg", "photos/HMD_Nokia_8.3_5G.jpg", "photos/iphone6_hdr_YES.jpg"] }
        let input = try TemporaryFolder.make("interrupt")
        for (index, photo) in many.enumerated() {
            try FileManager.default.copyItem(at: try Corpus.file(photo), to: input.appendingPathComponent("p\(index).jpg"))
        }
        let output = input.appendingPathComponent("out")
        // Large PNGs: each takes a while to encode and write, so the interruption finds writes in flight.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.osprey)
        process.arguments = ["convert", input.path, "--size", "3000x3000", "--format", "png", "--jobs", "2", "-o", output.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupted while a file is being written: once one output is whole, as soon as a
        // temporary file shows.
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(60))
        var sawTemporary = false
        while process.isRunning, ContinuousClock.now < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
            if names.contains(where: { !$0.hasPrefix(".") }), names.contains(where: { $0.hasPrefix(".") }) {
                sawTemporary = true
                break
            }
            usleep(200)
        }
        #expect(sawTemporary && process.isRunning, "interrupted while writing")
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "ended as SIGINT asks")
        let left = Self.files(in: output)
        #expect(!left.keys.contains { ($0 as NSString).lastPathComponent.hasPrefix(".") }, "no temporary file: \(left.keys.sorted())")
        #expect(left.count >= 1 && left.count < many.count)
        for name in left.keys {
            #expect(try Self.size(of: output.appendingPathComponent(name)).0 > 0, "\(name) is whole")
        }
    }
}
