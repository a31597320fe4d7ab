import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// BlurHash and ThumbHash of real photos against their reference implementations (PyPI's
/// blurhash-python and thumbhash-python, `Tests/Scripts/placeholder_reference.py`): the same
/// thumbnail hashed by both, each pair of hashes decoded by the reference decoder, ≥ 30 dB apart.
@Suite("Placeholder hashes")
struct PlaceholderHashTests {
    @Test func blurHashAndThumbHashMatchTheReferenceImplementations() throws {
        let folder = try TemporaryFolder.make("placeholders")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/placeholder_reference.py").path
        let photos = ["photos/jolla.jpg", "photos/craft-beer.jpg", "photos/book-beside-flowers.jpg", "photos/HMD_Nokia_8.3_5G.jpg"]
        let thumbs = try ChildProcess.run("/usr/bin/env", ["python3", script, "thumbs", folder.path] + photos.map { try Corpus.file($0).path })
        #expect(thumbs.status == 0, "\(thumbs.output)")
        let files = thumbs.output.split(separator: "\n").filter { $0.hasSuffix(".png") }.map(String.init)
        #expect(files.count == photos.count)
        let codec = ImageCodec()
        var lines = ""
        for file in files {
            let image = try codec.decode(.file(path: file), options: DecodingOptions())
            lines += "\(file)\t\(BlurHash.encode(image, x: 4, y: 3))\t\(ThumbHash.encode(image).base64EncodedString())\n"
        }
        let input = folder.appendingPathComponent("ours.tsv")
        try lines.write(to: input, atomically: true, encoding: .utf8)
        let compared = try ChildProcess.run("/bin/sh", ["-c", "python3 '\(script)' compare < '\(input.path)'"])
        #expect(compared.status == 0, "\(compared.output)")
        let results = compared.output.split(separator: "\n").filter { $0.hasPrefix("{") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(results.count == files.count)
        for result in results {
            let blurHash = result["blurhash_psnr"] as? Double ?? 0, thumbHash = result["thumbhash_psnr"] as? Double ?? 0
            #expect(blurHash >= 30 && thumbHash >= 30, "\(result)")
        }
    }
}
