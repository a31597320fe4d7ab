import Foundation
import OspreyDomain
import OspreyServer
import OspreyTesting
import Testing

/// `/info`'s options beyond the header and the placeholders, in process: XMP, crop
/// coordinates, a page of an animation, dominant colours' build_missed, the URL's security options, info presets and the
/// allowed options, and answers kept in the cache tiers.
@Suite("/info options", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct InfoOptionsTests {
    static func json(_ answer: CurlGet) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], "\(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
    }

    /// A server that trusts the signature `x`, with the metadata probe's JPEG, a 4-frame GIF
    /// and a photo on its origin.
    static func server(configure: (inout ImageService.Configuration) -> Void = { _ in }) throws -> (ServerUnderTest, URL) {
        let folder = try TemporaryFolder.make("info-options")
        try MetadataProbe.craft(from: Corpus.file("photos/jolla.jpg"), into: folder)
        let server = try ServerUnderTest { service in
            service.trustedSignatures = ["x"]
            configure(&service)
        }
        server.origin.serve("meta.jpg", try Data(contentsOf: folder.appendingPathComponent("with-metadata.jpg")), contentType: "image/jpeg")
        server.origin.serve("star.gif", try Data(contentsOf: Corpus.file("gif/linku_star.gif")), contentType: "image/gif")
        return (server, folder)
    }

    @Test func xmpCropAndPagesAreAnswered() async throws {
        let (server, folder) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let (meta, photo, star) = (server.source("meta.jpg"), server.source("photo.jpg"), server.source("star.gif"))
        let answers = try await server.fetch([
            "/info/x/plain/\(meta)", "/info/x/xmp:0/plain/\(meta)",
            "/info/x/c:0.5:0.5:nowe/plain/\(photo)", "/info/x/c:100:50:soea/plain/\(photo)", "/info/x/c:0.25:0.5:sm/plain/\(photo)",
            "/info/x/pn:1/pg:2/avg:1/plain/\(star)", "/info/x/pg:0/avg:1/plain/\(star)", "/info/x/pg:4/avg:1/plain/\(star)",
            "/info/x/dc:1:1/plain/\(photo)",
        ])
        let xmp = try #require(try Self.json(answers[0])["xmp"] as? [String: [String: Any]], "XMP by default, as imgproxy's")
        #expect(xmp["dc"]?["creator"] as? [String] == ["Ada Lovelace"] && xmp["dc"]?["subject"] as? [String] == ["engine"])
        #expect(xmp["dc"]?["rights"] as? String == "(c) Ada Lovelace", "an rdf:Alt answers its x-default")
        #expect(xmp["xmp"]?["CreatorTool"] as? String == "Osprey Camera 1.0" && xmp["photoshop"]?["City"] as? String == "Helsinki")
        #expect(try Self.json(answers[1])["xmp"] == nil)

        // jolla.jpg is 3264×2448.
        #expect(try Self.json(answers[2])["crop"] as? [String: Double] == ["left": 0, "top": 0, "width": 0.5, "height": 0.5])
        let corner = try #require(try Self.json(answers[3])["crop"] as? [String: Double])
        let expected = ["left": 3164.0 / 3264, "top": 2398.0 / 2448, "width": 100.0 / 3264, "height": 50.0 / 2448]
        #expect(expected.allSatisfy { abs((corner[$0.key] ?? -1) - $0.value) < 1e-9 }, "\(corner)")
        let smart = try #require(try Self.json(answers[4])["crop"] as? [String: Double])
        #expect(smart["width"] == 0.25 && smart["height"] == 0.5)
        #expect((0...0.75).contains(smart["left"] ?? -1) && (0...0.5).contains(smart["top"] ?? -1))

        let page2 = try Self.json(answers[5]), page0 = try Self.json(answers[6])
        #expect(page2["pages_number"] as? Int == 4)
        #expect(page2["average"] != nil && page0["average"] != nil)
        #expect(answers[7].status == 422, "no fifth page")
        #expect((try Self.json(answers[8])["dominant_colors"] as? [String: Any])?.count == 6, "build_missed makes every kind")
    }

    @Test func securityOptionsPresetsAndAllowedOptions() async throws {
        let (closed, folder) = try Self.server()
        defer { closed.stop(); try? FileManager.default.removeItem(at: folder) }
        let refused = try await closed.fetch(["/info/x/msfs:1000/plain/\(closed.source("photo.jpg"))"])
        #expect(refused[0].status == 403, "security options need the server's leave")

        let (server, _) = try Self.server { service in
            service.allowsSecurityOptions = true
            service.infoPresets = try! ImgproxyPresets(definitions: ["default=xmp:0/s:0", "colours=p:4/dc:1"], of: ImgproxyInfoRequest.Options.self)
            service.allowedInfoOptions = ["pr", "preset", "msfs", "msr", "avg"]
        }
        defer { server.stop() }
        let photo = server.source("photo.jpg")
        let answers = try await server.fetch([
            "/info/x/msfs:1000/plain/\(photo)", "/info/x/msr:0.5/plain/\(photo)", "/info/x/msr:100/plain/\(photo)",
            "/info/x/pr:colours/plain/\(photo)", "/info/x/p:4/plain/\(photo)", "/info/x/avg:1/plain/\(server.source("meta.jpg"))",
        ])
        #expect(answers[0].status == 422 && answers[1].status == 422, "over the URL's own limits")
        let plain = try Self.json(answers[2])
        #expect(plain["size"] == nil && plain["width"] as? Int == 3264, "the default preset applies first")
        let colours = try Self.json(answers[3])
        #expect((colours["palette"] as? [Any])?.count ?? 0 >= 2 && colours["dominant_colors"] != nil)
        #expect(answers[4].status == 404, "p is not among the allowed info options")
        #expect(try Self.json(answers[5])["xmp"] == nil && (try Self.json(answers[5]))["average"] != nil)
        #expect(throws: ImgproxyError.self) { try ImgproxyPresets(definitions: ["bad=rs:fill:10:10"], of: ImgproxyInfoRequest.Options.self) }
    }

    @Test func answersAreKeptLikeEncodedImages() async throws {
        let (server, folder) = try Self.server()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let path = "/info/x/bh:4:3/th:1/plain/\(server.source("photo.jpg"))"
        let first = try await server.fetch([path])[0]
        #expect(first.status == 200)
        let request = try ImgproxyInfoRequest(path: String(path.dropFirst(5)), headers: [:], service: server.service)
        let key = server.service.infoKey(ImageRequest(url: request.source), request.options)
        let kept = try await server.service.pipeline.configuration.memoryDataCache?.cachedData(for: key)
        #expect(kept?.data == first.body, "the JSON is in the memory tier under the source's key and the options")
        // Answered again from there, though the origin now has another image under the name.
        server.origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/craft-beer.jpg")), contentType: "image/jpeg")
        #expect(try await server.fetch([path])[0].body == first.body)
    }
}
