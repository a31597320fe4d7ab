import Foundation
import OspreyCodec
import OspreyServer
import OspreyTesting
import Testing

/// `osprey-server` answering URLs built by imgproxy's own URL builder (the `imgproxy` package
/// from PyPI), against an origin on loopback.
// Serialized: each test blocks a thread of the shared pool while curl and the server run.
@Suite("osprey-server", .serialized)
struct ServerProcessTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    /// The pair before a rotation, still accepted beside the new one.
    static let oldKey = "6f6c642d6b6579", oldSalt = "6f6c642d73616c74"

    /// One URL for the builder to make.
    struct Spec: Codable {
        var url: String
        var key: String? = ServerProcessTests.key
        var salt: String? = ServerProcessTests.salt
        var resizingType = "fit"
        var width = 0
        var height = 0
        var gravity = "ce"
        var enlarge = false
        var extension_ = ""
        var advanced: [String] = []
    }

    /// The paths imgproxy's URL builder makes for `specs`.
    static func paths(_ specs: [Spec]) throws -> [String] {
        let script = """
            import json, sys
            from imgproxy import ImgProxy
            for s in json.load(sys.stdin):
                print(ImgProxy(s["url"], key=s.get("key"), salt=s.get("salt"), resizing_type=s["resizingType"], width=s["width"],
                               height=s["height"], gravity=s["gravity"], enlarge=s["enlarge"], extension=s["extension_"],
                               advanced=s["advanced"])())
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        python.standardInput = input
        python.standardOutput = output
        try python.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(specs))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "the imgproxy package is installed (make setup)")
        return text.split(separator: "\n").map(String.init)
    }

    static func origin() throws -> TestHTTPServer {
        let origin = try TestHTTPServer()
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        origin.serve("alpha.png", try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")), contentType: "image/png")
        return origin
    }

    static func server(_ origin: TestHTTPServer, _ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess.start(arguments: ["--key", key, "--salt", salt, "--key", oldKey, "--salt", oldSalt,
                                          "--allowed-source", origin.url("/").absoluteString] + extra,
                              executable: "osprey-server", readyPath: "/health")
    }

    static func size(_ body: Data) throws -> (Int, Int) {
        let info = try ImageCodec().info(.data(body))
        return (info.width, info.height)
    }

    @Test func sizesCropsFormatsAndSignaturesFromImgproxysBuilder() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let server = try Self.server(origin)
        defer { #expect(server.stop() == 0) }
        let photo = origin.url("/files/photo.jpg").absoluteString
        let paths = try Self.paths([
            Spec(url: photo, width: 200, height: 200, extension_: "jpg"),
            Spec(url: photo, resizingType: "fill", width: 120, height: 80, extension_: "png"),
            Spec(url: photo, width: 100, advanced: ["f:webp", "q:60", "bl:2"]),
            Spec(url: photo, key: Self.oldKey, salt: Self.oldSalt, width: 64, height: 64, extension_: "jpg"),
            Spec(url: photo, key: "00112233", salt: Self.salt, width: 64, height: 64),
            Spec(url: photo, key: nil, salt: nil, width: 64, height: 64),
            Spec(url: photo, width: 64, height: 64, advanced: ["pg:2"]),
            Spec(url: photo, resizingType: "fill", width: 64, height: 64, enlarge: true),
            Spec(url: photo, resizingType: "fill", width: 60, height: 90, gravity: "sm", extension_: "png"),
            Spec(url: photo, resizingType: "fill", width: 60, height: 90, gravity: "we", extension_: "png"),
            Spec(url: photo, resizingType: "fill", width: 60, height: 90, gravity: "ea", extension_: "png"),
            Spec(url: photo, resizingType: "fill", width: 60, height: 90, gravity: "fp:0.6:0.5", extension_: "png"),
            Spec(url: photo, resizingType: "fill", width: 60, height: 90, gravity: "no:10:5", extension_: "png"),
        ])
        let fit = try server.get(paths[0])
        #expect(fit.status == 200 && fit.headers.contains("content-type: image/jpeg"))
        let fitSize = try Self.size(fit.body)
        #expect(max(fitSize.0, fitSize.1) == 200 && min(fitSize.0, fitSize.1) < 200, "\(fitSize)")
        let fill = try server.get(paths[1])
        #expect(fill.status == 200 && fill.headers.contains("content-type: image/png"))
        #expect(try Self.size(fill.body) == (120, 80))
        let webp = try server.get(paths[2])
        #expect(webp.status == 200 && webp.headers.contains("content-type: image/webp"))
        #expect(try Self.size(webp.body).0 == 100)
        #expect(try server.get(paths[3]).status == 200, "the key before a rotation still signs")
        #expect(try server.get(paths[4]).status == 403, "a wrong key")
        #expect(try server.get(paths[5]).status == 403, "unsigned, and the server was not started to allow it")
        let trim = try server.get(paths[6])
        #expect(trim.status == 404 && String(decoding: trim.body, as: UTF8.self) == "Invalid URL\n", "imgproxy Pro's page")
        let enlarged = try server.get(paths[7])
        let enlargedSize = try Self.size(enlarged.body)
        #expect(enlarged.status == 200 && enlargedSize == (64, 64))
        let crops = try (8...11).map { try server.get(paths[$0]) }
        #expect(crops.allSatisfy { $0.status == 200 }, "smart, side and focal-point gravities")
        #expect(try crops.allSatisfy { try Self.size($0.body) == (60, 90) })
        #expect(Set(crops.dropFirst().map(\.body)).count == 3, "west, east and a focal point keep other parts")
        let offset = try server.get(paths[12])
        let offsetSize = try Self.size(offset.body)
        #expect(offset.status == 200 && offsetSize == (60, 90), "a gravity with offsets")
        #expect(origin.hits("/files/photo.jpg") == 1, "one download for every size")
    }

    @Test func theFormatFollowsAcceptAndAConditionalRequestGets304() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let server = try Self.server(origin, ["--auto-format", "jxl", "--auto-format", "avif", "--auto-format", "webp"])
        defer { #expect(server.stop() == 0) }
        let paths = try Self.paths([Spec(url: origin.url("/files/photo.jpg").absoluteString, width: 96, height: 96),
                                    Spec(url: origin.url("/files/alpha.png").absoluteString, width: 16, height: 16)])
        let jxl = try server.get(paths[0], headers: ["Accept: image/jxl,image/avif,image/webp,*/*"])
        #expect(jxl.headers.contains("content-type: image/jxl") && FormatDetector.detect(jxl.body) == .jxl)
        let avif = try server.get(paths[0], headers: ["Accept: image/avif,image/webp,*/*"])
        #expect(avif.headers.contains("content-type: image/avif") && avif.headers.contains("vary: accept"))
        #expect(try server.get(paths[0], headers: ["Accept: image/webp,*/*"]).headers.contains("content-type: image/webp"))
        let jpeg = try server.get(paths[0], headers: ["Accept: */*"])
        #expect(jpeg.headers.contains("content-type: image/jpeg"))
        #expect(try Self.size(jxl.body) == Self.size(jpeg.body), "JPEG XL at the asked size")
        #expect(jpeg.headers.contains("cache-control: max-age=31536000, public"))
        #expect(try server.get(paths[1], headers: ["Accept: */*"]).headers.contains("content-type: image/png"), "alpha kept")
        // The head is read lowercased; a weak tag's `W/` is case-sensitive.
        let etag = try #require(jpeg.headers.split(separator: "\r\n").first { $0.hasPrefix("etag:") }?.dropFirst(5)
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "w/\"", with: "W/\""))
        let again = try server.get(paths[0], headers: ["Accept: */*", "If-None-Match: \(etag)"])
        #expect(again.status == 304 && again.body.isEmpty)
    }

    @Test func sourcesOutsideTheAllowListAndPrivateAddressesAreRefused() throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let open = try ServerProcess.start(arguments: ["--allow-unsigned"], executable: "osprey-server", readyPath: "/health")
        defer { #expect(open.stop() == 0) }
        let unsigned = try Self.paths([Spec(url: origin.url("/files/photo.jpg").absoluteString, key: nil, salt: nil, width: 32, height: 32)])
        let loopback = try open.get(unsigned[0])
        #expect(loopback.status == 404 && String(decoding: loopback.body, as: UTF8.self) == "Invalid source URL\n")
        let allowed = try Self.server(origin)
        defer { #expect(allowed.stop() == 0) }
        let elsewhere = try Self.paths([Spec(url: "http://127.0.0.2:1/elsewhere.jpg", width: 32, height: 32)])
        #expect(try allowed.get(elsewhere[0]).status == 404)
    }

    @Test func pathsParseAsImgproxyReadsThem() throws {
        let plain = try ImgproxyPath("/insecure/rs:fill:300:400:0/q:70/plain/http://img.example.com/a%20b.jpg@webp")
        #expect(plain.isUnsigned && plain.source.absoluteString == "http://img.example.com/a%20b.jpg")
        #expect(plain.options.resizingType == .fill && plain.options.width == 300 && plain.options.height == 400)
        #expect(plain.options.quality == 70 && plain.options.format == .webp)
        #expect(throws: ImgproxyError.unsupported("option xyz")) { try ImgproxyPath("/_/xyz:1/plain/http://a.example/b.jpg") }
        #expect(throws: ImgproxyError.malformed("no source")) { try ImgproxyPath("/_/w:10") }
        #expect(FormatNegotiation(auto: [.webp], codec: ImageCodec()).format(accept: "image/avif,image/webp", hasAlpha: false, isAnimated: false) == .webp)
        #expect(FormatNegotiation(auto: [.webp, .avif], codec: ImageCodec()).format(accept: "image/webp;q=0, */*", hasAlpha: false, isAnimated: false) == .jpeg)
        #expect(FormatNegotiation(auto: [.webp, .avif], codec: ImageCodec()).format(accept: "image/jxl,image/avif", hasAlpha: false, isAnimated: false) == .avif)
        #expect(FormatNegotiation(auto: [.webp, .avif, .jxl], codec: ImageCodec()).format(accept: "image/jxl,image/avif", hasAlpha: false, isAnimated: false) == .jxl)
        #expect(FormatNegotiation(auto: [], codec: ImageCodec()).format(accept: "image/webp,*/*", hasAlpha: false, isAnimated: false) == .jpeg, "imgproxy: nothing automatic")
    }
}
