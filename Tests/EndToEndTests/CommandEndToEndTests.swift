import Foundation
import Osprey
import OspreyTesting
import Testing

@Suite("osprey load, prefetch and fourcut end to end")
struct CommandEndToEndTests {
    @Test func loadExitsWith69ForHTTPFailuresAnd65ForBadImageData() throws {
        let e = try EndToEnd()
        defer { e.finish() }
        #expect(try e.osprey(["load", e.server.url("/status/404").absoluteString]).status == 69)
        #expect(try e.osprey(["load", e.server.url("/html").absoluteString]).status == 65)
        #expect(try e.osprey(["load", e.url.absoluteString, "--process", "sparkle"]).status == 64)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let loaded = try e.osprey(["load", e.url.absoluteString, "--size", "100x100", "--mode", "fill", "--process", "blur=2,round=12", "-o", out.path])
        #expect(loaded.status == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(written.count == 1)
        let image = try ImageCodec().decode(.file(path: out.appendingPathComponent(written[0]).path), options: DecodingOptions())
        #expect(image.size == PixelSize(width: 100, height: 100) && image.pixelFormat.hasAlpha, "filled, cropped, rounded")
    }

    @Test func loadAndPrefetchTakePathsAndDataURLs() throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let photo = try Corpus.file("photos/jolla.jpg").path
        let png = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")).base64EncodedString()
        let loaded = try e.osprey(["load", photo, "data:image/png;base64," + png, "--size", "24x24", "--mode", "fill", "-o", out.path])
        #expect(loaded.status == 0, "\(loaded.stdout)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        let sizes = try written.map { try ImageCodec().info(.file(path: out.appendingPathComponent($0).path)) }.map { "\($0.width)x\($0.height)" }
        #expect(sizes == ["24x24", "24x24"])
        #expect(try e.osprey(["load", "/nonexistent/osprey.jpg"]).status != 0)
        let list = out.appendingPathComponent("list.txt")
        try (photo + "\n").write(to: list, atomically: true, encoding: .utf8)
        #expect(try e.osprey(["prefetch", "--from", list.path]).status == 0)
    }

    @Test func prefetchSummarisesAndSkipsWhatIsCached() throws {
        let e = try EndToEnd()
        defer { e.finish() }
        for i in 0..<3 { e.server.serve("p\(i).jpg", EndToEnd.photo) }
        let list = e.cacheDirectory.deletingLastPathComponent().appendingPathComponent("osprey-list-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: list) }
        let urls = (0..<3).map { e.server.url("/files/p\($0).jpg").absoluteString } + [e.server.url("/status/404").absoluteString]
        try ("# a comment\n" + urls.joined(separator: "\n") + "\n\n").write(to: list, atomically: true, encoding: .utf8)
        let first = try e.osprey(["prefetch", "--from", list.path, "--concurrency", "2", "--json"])
        #expect(first.status == 69, "one URL failed")
        let summary = try JSONDecoder().decode(Summary.self, from: Data(first.stdout.split(separator: "\n").last!.utf8))
        #expect(summary == Summary(completed: 3, failed: 1, skipped: 0, total: 4))
        let second = try e.osprey(["prefetch", "--from", list.path, "--json"])
        #expect(try JSONDecoder().decode(Summary.self, from: Data(second.stdout.split(separator: "\n").last!.utf8))
                == Summary(completed: 0, failed: 1, skipped: 3, total: 4))
        #expect((0..<3).allSatisfy { e.server.hits("/files/p\($0).jpg") == 1 })
    }

    @Test func fourcutWritesTheCardOnlyWhenAllFiveLoad() throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let frame = try ImageCodec().encode(TestImages.solid(PixelSize(width: 300, height: 400), value: 0xEE, format: .rgba8),
                                            options: EncodingOptions(format: .png))
        e.server.serve("frame.png", frame, contentType: "image/png")
        for i in 0..<4 { e.server.serve("q\(i).jpg", EndToEnd.photo) }
        let card = e.cacheDirectory.deletingLastPathComponent().appendingPathComponent("osprey-card-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: card) }
        let photos = (0..<4).flatMap { ["--photo", e.server.url("/files/q\($0).jpg").absoluteString] }
        let made = try e.osprey(["fourcut", "--frame", e.server.url("/files/frame.png").absoluteString] + photos + ["-o", card.path])
        #expect(made.status == 0)
        let image = try ImageCodec().decode(.file(path: card.path), options: DecodingOptions())
        #expect(image.size == PixelSize(width: 300, height: 400))
        try FileManager.default.removeItem(at: card)
        let broken = Array(photos.dropLast()) + [e.server.url("/status/500").absoluteString]
        let failed = try e.osprey(["fourcut", "--frame", e.server.url("/files/frame.png").absoluteString] + broken + ["-o", card.path])
        #expect(failed.status == 69)
        #expect(!FileManager.default.fileExists(atPath: card.path), "nothing written when one photo fails")
    }

    struct Summary: Codable, Equatable {
        let completed: Int
        let failed: Int
        let skipped: Int
        let total: Int
    }
}
