import Foundation
import OspreyTesting
import Testing

/// Answers' metadata as imgproxy's docs describe it: authorship and rights kept by default
/// (`IMGPROXY_KEEP_COPYRIGHT`), everything with `IMGPROXY_STRIP_METADATA=false`, and the URL's
/// `sm` and `kcr` over both; read back by Pillow.
@Suite("Answers' metadata", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct MetadataAnswerTests {
    typealias Abuse = ServerProcessTests.Abuse

    @Test func copyrightByDefaultEverythingOrNothingAsTheSettingsAndURLSay() async throws {
        let folder = try TemporaryFolder.make("metadata")
        defer { try? FileManager.default.removeItem(at: folder) }
        try MetadataProbe.craft(from: Corpus.file("photos/jolla.jpg"), into: folder)
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("photo.jpg", try Data(contentsOf: folder.appendingPathComponent("with-metadata.jpg")), contentType: "image/jpeg")
        let source = origin.url("/files/photo.jpg").absoluteString
        var answers: [(String, URL)] = []
        for (name, environment) in [("default", [:]), ("STRIP_METADATA=false", ["IMGPROXY_STRIP_METADATA": "false"]),
                                    ("KEEP_COPYRIGHT=false", ["IMGPROXY_KEEP_COPYRIGHT": "false"])] {
            let server = try await Abuse.server([], environment: environment.merging(["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"]) { $1 })
            for options in ["rs:fit:100:100", "rs:fit:100:100/sm:0", "rs:fit:100:100/kcr:0", "rs:fit:100:100/sm:1/kcr:1"] {
                let answer = try await server.fetch(Abuse.path("\(options)/f:jpg", source))
                #expect(answer.status == 200)
                let file = folder.appendingPathComponent("\(answers.count).jpg")
                try answer.body.write(to: file)
                answers.append(("\(name) \(options)", file))
            }
            #expect(server.stop() == 0)
        }
        let copyright = ["Artist": "Ada Lovelace", "Copyright": "(c) Ada Lovelace"]
        let expected: [[String: String]?] = [copyright, nil, [:], copyright,    // default
                                             nil, nil, nil, copyright,          // everything kept unless sm:1
                                             [:], nil, [:], copyright]          // nothing unless kcr:1 (or sm:0)
        for ((name, _), (blocks, exif)) in zip(answers, zip(try MetadataProbe.read(answers.map(\.1)), expected)) {
            if let exif {
                #expect(blocks.exif == exif, "\(name)")
                #expect(exif.isEmpty == (blocks.xmp == nil), "\(name)")
            } else {
                #expect(blocks.exif["Make"] == "Osprey" && blocks.exif["Orientation"] == "1" && blocks.iptc["2:25"] == "engine", "\(name): \(blocks.exif)")
            }
        }
    }
}
