import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

/// `/info` as imgproxy Pro documents it: format, dimensions and size from the header, the
/// average colour, a BlurHash and a ThumbHash from a small decode, each placeholder within
/// 30 dB of its reference implementation's for the same photo.
@Suite("/info", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct InfoEndpointTests {
    typealias Abuse = ServerProcessTests.Abuse

    static func json(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(String(decoding: body.prefix(200), as: UTF8.self))")
    }

    @Test func headerFactsAndPlaceholdersAreAnswered() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("photo.jpg", photo, contentType: "image/jpeg")
        let server = try await Abuse.server([], environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"])
        defer { #expect(server.stop() == 0) }
        let source = origin.url("/files/photo.jpg").absoluteString
        let header = try ImageCodec().info(.data(photo))

        let plain = try await server.fetch("/info/insecure/plain/\(source)")
        #expect(plain.status == 200 && plain.headers.lowercased().contains("content-type: application/json"), "\(plain.headers)")
        let facts = try Self.json(plain.body)
        #expect(facts["format"] as? String == "jpeg" && facts["mime_type"] as? String == "image/jpeg")
        #expect(facts["width"] as? Int == header.width && facts["height"] as? Int == header.height && facts["orientation"] as? Int == 1)
        #expect(facts["size"] as? Int == photo.count)
        #expect(facts["blurhash"] == nil && facts["average"] == nil, "only what is asked, as imgproxy's defaults")

        let asked = try await server.fetch("/info/insecure/s:0/bh:4:3/th:1/avg:1/pn:1/a:1/plain/\(source)")
        #expect(asked.status == 200)
        let placeholders = try Self.json(asked.body)
        #expect(placeholders["size"] == nil && placeholders["pages_number"] as? Int == 1 && placeholders["alpha"] as? Bool == false)
        let average = try #require(placeholders["average"] as? [String: Int])
        #expect(average["A"] == 255 && (0...255).contains(average["R"] ?? -1))
        let blurHash = try #require(placeholders["blurhash"] as? String)
        let thumbHash = try #require(placeholders["thumbhash"] as? String)
        #expect(blurHash.count == 28)
        #expect((placeholders["thumb_hash"] as? String)?.count == (Data(base64Encoded: thumbHash)?.count ?? 0) * 2)

        // Against the references, hashing Pillow's own thumbnail of the same photo.
        let folder = try TemporaryFolder.make("info")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/placeholder_reference.py").path
        let thumbs = try ChildProcess.run("/usr/bin/env", ["python3", script, "thumbs", folder.path, try Corpus.file("photos/jolla.jpg").path])
        let png = try #require(thumbs.output.split(separator: "\n").first { $0.hasSuffix(".png") })
        let input = folder.appendingPathComponent("ours.tsv")
        try "\(png)\t\(blurHash)\t\(thumbHash)\n".write(to: input, atomically: true, encoding: .utf8)
        let compared = try ChildProcess.run("/bin/sh", ["-c", "python3 '\(script)' compare < '\(input.path)'"])
        let result = try #require(compared.output.split(separator: "\n").first { $0.hasPrefix("{") })
        let scores = try Self.json(Data(result.utf8))
        #expect((scores["blurhash_psnr"] as? Double ?? 0) >= 30 && (scores["thumbhash_psnr"] as? Double ?? 0) >= 30, "\(scores)")

        // Conditional requests, and options Osprey does not answer yet.
        let tag = try #require(Abuse.header("ETag", in: asked.headers))
        #expect(try await server.fetch("/info/insecure/s:0/bh:4:3/th:1/avg:1/pn:1/a:1/plain/\(source)", headers: ["If-None-Match: \(tag)"]).status == 304)
        #expect(try await server.fetch("/info/insecure/nonsense:1/plain/\(source)").status == 404)
        #expect(try await server.fetch("/info/insecure/bh:10:3/plain/\(source)").status == 404)
    }

    @Test func exifPaletteAndDominantColoursAreAnswered() async throws {
        let folder = try TemporaryFolder.make("info")
        defer { try? FileManager.default.removeItem(at: folder) }
        try MetadataProbe.craft(from: Corpus.file("photos/jolla.jpg"), into: folder)
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("meta.jpg", try Data(contentsOf: folder.appendingPathComponent("with-metadata.jpg")), contentType: "image/jpeg")
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/craft-beer.jpg")), contentType: "image/jpeg")
        let server = try await Abuse.server([], environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"])
        defer { #expect(server.stop() == 0) }
        let meta = origin.url("/files/meta.jpg").absoluteString
        let readable = try Self.json(try await server.fetch("/info/insecure/plain/\(meta)").body)
        let exif = try #require(readable["exif"] as? [String: String], "EXIF is answered by default, as imgproxy's")
        #expect(exif["Manufacturer"] == "Osprey" && exif["Model"] == "Camera One" && exif["Artist"] == "Ada Lovelace" && exif["Orientation"] == "6")
        let canonical = try Self.json(try await server.fetch("/info/insecure/exif:1:1/plain/\(meta)").body)
        #expect((canonical["exif"] as? [String: String])?["Make"] == "Osprey")
        #expect(try Self.json(try await server.fetch("/info/insecure/exif:0/plain/\(meta)").body)["exif"] == nil)
        let iptc = try #require(readable["iptc"] as? [String: Any], "IPTC too, by its titles, repeatable ones as lists")
        #expect(iptc["Keywords"] as? [String] == ["engine"] && iptc["By-line"] as? [String] == ["Ada Lovelace"])
        #expect(iptc["Copyright Notice"] as? String == "(c) Ada Lovelace" && iptc["City"] as? String == "Helsinki")

        let photo = origin.url("/files/photo.jpg").absoluteString
        let colours = try Self.json(try await server.fetch("/info/insecure/p:8/dc:1/plain/\(photo)").body)
        let palette = try #require(colours["palette"] as? [[String: Int]])
        #expect((2...8).contains(palette.count) && palette.allSatisfy { $0.keys.sorted() == ["A", "B", "G", "R"] })
        let dominant = try #require(colours["dominant_colors"] as? [String: [String: Int]])
        let kinds: Set<String> = ["vibrant", "light_vibrant", "dark_vibrant", "muted", "light_muted", "dark_muted"]
        #expect(!dominant.isEmpty && Set(dominant.keys).isSubset(of: kinds), "\(dominant)")
        #expect(dominant.values.allSatisfy { $0.keys.sorted() == ["B", "G", "R"] })
        #expect(try await server.fetch("/info/insecure/p:1/plain/\(photo)").status == 404, "2…256 colours, as imgproxy")
    }

    @Test func infoURLsAreSignedAsImageURLsAre() async throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        let (key, salt) = ("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5")
        let server = try await ServerProcess.launch(environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_KEY": key, "IMGPROXY_SALT": salt])
        defer { #expect(server.stop() == 0) }
        let signedPart = "/d:1/plain/" + origin.url("/files/photo.jpg").absoluteString
        #expect(try await server.fetch("/info/insecure" + signedPart).status == 403)
        let signature = try Self.signature(signedPart, key: key, salt: salt)
        #expect(try await server.fetch("/info/\(signature)" + signedPart).status == 200)
    }

    /// imgproxy's signature: HMAC-SHA256 over salt and path, base64url without padding (openssl).
    static func signature(_ path: String, key: String, salt: String) throws -> String {
        let outcome = try ChildProcess.run("/bin/sh", ["-c", """
            (printf '%s' '\(salt)' | xxd -r -p; printf '%s' '\(path)') | openssl dgst -sha256 -mac HMAC -macopt hexkey:\(key) -binary \
            | base64 | tr '+/' '-_' | tr -d '=\\n'
            """])
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
