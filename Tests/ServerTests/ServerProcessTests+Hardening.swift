#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OspreyCodec
import OspreyDomain
import OspreyServer
import OspreyTesting
import Testing

/// osprey-server against hostile clients and slow origins (Docs/SECURITY.md).
extension ServerProcessTests {
    @Test func errorAnswersTellTheClassAndTheRequestIDNotWhatWasFetched() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("secret.txt", Data("TOPSECRET-TOKEN-0123456789 and the rest of the file".utf8), contentType: "image/jpeg")
        let closedPort = try LoopbackPort.free()
        let paths = try Self.paths([Spec(url: origin.url("/files/secret.txt").absoluteString, width: 32, height: 32),
                                    Spec(url: "http://127.0.0.1:\(closedPort)/photo.jpg", width: 32, height: 32)])
        let server = try ServerProcess.start(arguments: ["--key", Self.key, "--salt", Self.salt, "--allowed-source", origin.url("/").absoluteString,
                                                        "--allowed-source", "http://127.0.0.1:\(closedPort)/", "--allow-loopback-sources"],
                                             executable: "osprey-server", readyPath: "/health")
        let notImage = try server.get(paths[0], headers: ["X-Request-ID: probe-1"])
        #expect(notImage.status == 422 && String(decoding: notImage.body, as: UTF8.self) == "Invalid source image\n")
        #expect(notImage.headers.contains("x-request-id: probe-1"), "the client's own id comes back")
        let unreachable = try server.get(paths[1])
        #expect(unreachable.status == 404 && String(decoding: unreachable.body, as: UTF8.self) == "Source image is unreachable\n")
        #expect(!String(decoding: unreachable.body, as: UTF8.self).contains("\(closedPort)"), "no address or port")
        let id = try #require(unreachable.headers.split(separator: "\r\n").first { $0.hasPrefix("x-request-id:") }?.dropFirst(13)
            .trimmingCharacters(in: .whitespaces))
        #expect(id.count >= 16, "a new id when the client sent none: \(id)")
        let invalid = try server.get("/insecure/rs:fit:32:32/plain/" + origin.url("/files/secret.txt").absoluteString)
        #expect(invalid.status == 403 && String(decoding: invalid.body, as: UTF8.self) == "Forbidden\n")
        #expect(server.stop() == 0)
        // The detail is the operator's, in the log under each id.
        let logged = try String(contentsOf: server.log, encoding: .utf8)
        #expect(logged.contains("request-id=probe-1") && logged.contains("TOPSECRET"), "\(logged)")
        #expect(logged.contains("request-id=\(id)") && logged.contains("\(closedPort)"), "\(logged)")

        let development = try ServerProcess.start(arguments: ["--key", Self.key, "--salt", Self.salt, "--allowed-source", origin.url("/").absoluteString,
                                                             "--allow-loopback-sources", "--development-errors"],
                                                  executable: "osprey-server", readyPath: "/health")
        defer { #expect(development.stop() == 0) }
        let detailed = String(decoding: try development.get(paths[0]).body, as: UTF8.self)
        #expect(detailed.hasPrefix("Invalid source image: ") && detailed.contains("TOPSECRET"), "--development-errors shows the detail: \(detailed)")
    }

    @Test func anAnimationStaysAnimatedWhereTheAnswerCanCarryIt() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("four.gif", try Data(contentsOf: Corpus.file("gif/pygif/animation.gif")), contentType: "image/gif")
        let source = origin.url("/files/four.gif").absoluteString
        let paths = try Self.paths([Spec(url: source, width: 32, height: 32, extension_: "webp"),
                                    Spec(url: source, width: 32, height: 32),
                                    Spec(url: source, width: 32, height: 32, extension_: "webp", advanced: ["da:1"]),
                                    Spec(url: source, width: 32, height: 32, extension_: "png"),
                                    Spec(url: source, width: 32, height: 32, extension_: "gif")])
        let server = try Self.server(origin, ["--auto-format", "webp"])
        defer { #expect(server.stop() == 0) }
        func frames(_ body: Data) throws -> Int {
            try ImageCodec().decode(.data(body), options: DecodingOptions(frames: .all)).animation?.frames.count ?? 1
        }
        let source4 = try frames(try Data(contentsOf: Corpus.file("gif/pygif/animation.gif")))
        #expect(source4 == 4)
        let webp = try server.get(paths[0])
        #expect(webp.status == 200 && webp.headers.contains("content-type: image/webp"))
        #expect(try frames(webp.body) == 4, "asked as WebP: every frame")
        let negotiated = try server.get(paths[1], headers: ["Accept: image/webp,*/*"])
        let negotiatedFrames = try frames(negotiated.body)
        #expect(negotiated.headers.contains("content-type: image/webp") && negotiatedFrames == 4, "negotiated WebP too")
        #expect(try frames(try server.get(paths[2]).body) == 1, "da:1 asks for the first frame")
        #expect(try frames(try server.get(paths[3]).body) == 1, "PNG holds one")
        let kept = try server.get(paths[1], headers: ["Accept: */*"])
        let keptFrames = try frames(kept.body)
        #expect(kept.headers.contains("content-type: image/gif") && keptFrames == 4,
                "a client without WebP gets the animated GIF, as imgproxy keeps a GIF source's format")
        let gif = try server.get(paths[4])
        let gifFrames = try frames(gif.body)
        #expect(gif.headers.contains("content-type: image/gif") && gifFrames == 4, "asked as GIF: every frame")
    }

    @Test func anSVGsReferencesAreNeitherFetchedNorAnswered() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        let secret = origin.url("/files/secret.png").absoluteString, track = origin.url("/files/track.png").absoluteString
        let svg = """
            <?xml version="1.0"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20">
              <style>rect { fill: url(\(track)); }</style>
              <script>fetch('\(secret)')</script>
              <rect width="40" height="20" fill="#c00" onload="alert(1)"/>
              <image href="\(secret)" width="10" height="10"/>
              <image xlink:href="file:///etc/passwd" width="10" height="10"/>
              <image href="http://169.254.169.254/latest/meta-data/" width="10" height="10"/>
              <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="\(secret)"/></foreignObject>
            </svg>
            """
        origin.serve("logo.svg", Data(svg.utf8), contentType: "image/svg+xml")
        let png = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png"))
        origin.serve("secret.png", png, contentType: "image/png")
        origin.serve("track.png", png, contentType: "image/png")
        let source = origin.url("/files/logo.svg").absoluteString
        let paths = try Self.paths([Spec(url: source, width: 400, extension_: "png"), Spec(url: source, width: 400)])
        let server = try Self.server(origin)
        defer { #expect(server.stop() == 0) }

        let raster = try server.get(paths[0])
        #expect(raster.status == 200 && raster.headers.contains("content-type: image/png"))
        #expect(try Self.size(raster.body) == (400, 200), "drawn at the size asked, past its own 40x20")
        let passed = try server.get(paths[1])
        let text = String(decoding: passed.body, as: UTF8.self)
        #expect(passed.status == 200 && passed.headers.contains("content-type: image/svg+xml"))
        #expect(passed.headers.contains("content-security-policy: script-src 'none'"))
        #expect(text.contains("<rect") && text.contains("#c00"), "the drawing stays: \(text)")
        for gone in ["script", "onload", "secret.png", "track.png", "file:", "169.254", "foreignObject", "iframe"] {
            #expect(!text.contains(gone), "\(gone) removed: \(text)")
        }
        let fetched = origin.requests.map(\.path)
        #expect(!fetched.contains { $0.contains("secret") || $0.contains("track") }, "only the SVG was fetched: \(fetched)")
    }

    /// An SVG's embedded images are sources too: bounded by the source limit whether the SVG
    /// is drawn or passed through; active content outside the allow-list goes in any spelling.
    @Test func anSVGsEmbeddedImagesAndActiveContentAreBounded() throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        let bomb = "data:image/png;base64," + CraftedImages.png(width: 60_000, height: 60_000).base64EncodedString()
        origin.serve("bomb.svg", Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><image href=\"\(bomb)\"/></svg>".utf8),
                     contentType: "image/svg+xml")
        origin.serve("active.svg", Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/>
            <a href="#r"><set attributeName="href" to="https://evil.example/"/></a>
            <form xmlns="http://www.w3.org/1999/xhtml" action="https://evil.example/"><input name="p"/></form>
            <style>@\\69mport 'https://evil.example/a.css'; rect { fill: u\\72l(https://evil.example/t) }</style></svg>
            """.utf8), contentType: "image/svg+xml")
        let paths = try Self.paths([Spec(url: origin.url("/files/bomb.svg").absoluteString, width: 40, extension_: "png"),
                                    Spec(url: origin.url("/files/bomb.svg").absoluteString, width: 40),
                                    Spec(url: origin.url("/files/active.svg").absoluteString, width: 40)])
        let server = try Self.server(origin)
        defer { #expect(server.stop() == 0) }
        #expect(try server.get(paths[0]).status == 422, "drawn: the embedded image is over the source limit")
        #expect(try server.get(paths[1]).status == 422, "passed through: the same")
        let passed = try server.get(paths[2])
        let text = String(decoding: passed.body, as: UTF8.self)
        #expect(passed.status == 200 && text.contains("#c00") && !text.contains("evil.example") && !text.contains("form"), "\(text)")
    }

    @Test func theAllowListMatchesParsedOriginsNotText() throws {
        let bare = SourcePolicy(allowedPrefixes: ["https://images.example.com"])
        for refused in ["https://images.example.com.evil.com/a.jpg", "https://images.example.com@evil.com/a.jpg",
                        "https://images.example.com:8443/a.jpg", "http://images.example.com/a.jpg"] {
            #expect(bare.refusal(for: URL(string: refused)!) != nil, "\(refused)")
        }
        #expect(bare.refusal(for: URL(string: "https://images.example.com@evil.com/a.jpg")!) == .credentials)
        for allowed in ["https://images.example.com/a.jpg", "https://IMAGES.example.com:443/b/c.jpg"] {
            #expect(bare.refusal(for: URL(string: allowed)!) == nil, "\(allowed)")
        }
        let folder = SourcePolicy(allowedPrefixes: ["https://images.example.com/public/"])
        for refused in ["https://images.example.com/public/../private/x.jpg", "https://images.example.com/public/%2E%2e/private/x.jpg",
                        "https://images.example.com/publicity/x.jpg", "https://images.example.com/public/./../x.jpg"] {
            #expect(folder.refusal(for: URL(string: refused)!) == .notAllowed, "\(refused)")
        }
        for allowed in ["https://images.example.com/public/x.jpg", "https://images.example.com/public/a/../b.jpg"] {
            #expect(folder.refusal(for: URL(string: allowed)!) == nil, "\(allowed)")
        }
        let named = SourcePolicy(allowedPrefixes: ["https://images.example.com/public"])
        #expect(named.refusal(for: URL(string: "https://images.example.com/public/x.jpg")!) == nil)
        #expect(named.refusal(for: URL(string: "https://images.example.com/publicity/x.jpg")!) == .notAllowed)
        #expect(SourcePolicy().refusal(for: URL(string: "https://user:pass@images.example.com/a.jpg")!) == .credentials,
                "credentials are refused with no allow-list too")

        // Through the server: a dot segment out of the allowed folder reaches nothing.
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("secret.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        // The allowed folder is the origin's /delay/0/files/, which serves the same files.
        let base = origin.url("/delay/0/files/").absoluteString
        let paths = try Self.paths([Spec(url: base + "../../../files/secret.jpg", width: 32, height: 32),
                                    Spec(url: base + "secret.jpg", width: 32, height: 32)])
        let server = try ServerProcess.start(arguments: ["--key", Self.key, "--salt", Self.salt, "--allowed-source", base],
                                             executable: "osprey-server", readyPath: "/health")
        defer { #expect(server.stop() == 0) }
        #expect(try server.get(paths[0]).status == 404)
        #expect(origin.hits("/files/secret.jpg") == 0, "nothing outside the folder was asked for")
        #expect(try server.get(paths[1]).status == 200)
    }
}
