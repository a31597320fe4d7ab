import Foundation
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's server-wide settings (secret, CORS, fallback image, enforced and preferred
/// formats, Cache-Control passthrough, Last-Modified) and its `raw` and `skp` options.
@Suite("imgproxy's serving settings", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImgproxyServingOptionsTests {
    typealias Spec = ServerProcessTests.Spec

    @Test func secretCorsAndFallback() async throws {
        let fallback = try Corpus.file("pngsuite/basn6a08.png").path
        let harness = try ServerUnderTest { configuration in
            configuration.secret = "s3cr3t"
            configuration.corsOrigin = "https://app.example"
            configuration.fallbackImage = .file(path: fallback)
        }
        defer { harness.stop() }
        let paths = try harness.paths([Spec(url: harness.source("photo.jpg"), width: 64, extension_: "jpg"),
                                       Spec(url: harness.source("gone.jpg"), width: 20, extension_: "png")])
        let got = try await harness.fetch([(paths[0], []), (paths[0], ["Authorization: Bearer wrong"]),
                                           (paths[0], ["Authorization: Bearer s3cr3t"]), (paths[1], ["Authorization: Bearer s3cr3t"])])
        #expect(got.map(\.status) == [403, 403, 200, 200])
        #expect(got.allSatisfy { $0.header("access-control-allow-origin") == "https://app.example" })
        let fallbackSize = try ServerProcessTests.size(got[3].body)
        #expect(got[3].header("fallback-image") == "1" && fallbackSize == (20, 20), "the fallback, sized")
    }

    @Test func formatsFollowTheServersPreferences() async throws {
        let enforcing = try ServerUnderTest { $0.enforcedFormats = [.webp] }
        let preferring = try ServerUnderTest { $0.preferredFormats = [.webp, .png] }
        defer { enforcing.stop(); preferring.stop() }
        let jpg = try enforcing.paths([Spec(url: enforcing.source("photo.jpg"), width: 64, extension_: "jpg")])[0]
        let enforced = try await enforcing.fetch([(jpg, ["Accept: image/webp,*/*"]), (jpg, ["Accept: */*"])])
        #expect(enforced.map { $0.header("content-type") } == ["image/webp", "image/jpeg"])
        #expect(enforced.allSatisfy { $0.header("vary") == "accept" })
        let auto = try preferring.paths([Spec(url: preferring.source("photo.jpg"), width: 64)])[0]
        let preferred = try await preferring.fetch([(auto, ["Accept: */*"])])
        #expect(preferred[0].header("content-type") == "image/webp", "the source's JPEG is not listed: the first that fits")
    }

    @Test func rawSkipPassthroughAndLastModified() async throws {
        let harness = try ServerUnderTest { $0.passesCacheControl = true }
        defer { harness.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
        harness.origin.serve("fresh.jpg", photo, contentType: "image/jpeg", headers: ["Cache-Control": "max-age=600", "Last-Modified": lastModified])
        let fresh = harness.source("fresh.jpg")
        let paths = try harness.paths([Spec(url: fresh, width: 64, extension_: "jpg", advanced: ["raw:1"]),
                                       Spec(url: fresh, width: 64, advanced: ["skp:jpg"]),
                                       Spec(url: fresh, width: 64, extension_: "png", advanced: ["skp:png"]),
                                       Spec(url: fresh, width: 64, extension_: "jpg")])
        let got = try await harness.fetch([(paths[0], []), (paths[1], []), (paths[2], []), (paths[3], []),
                                           (paths[3], ["If-Modified-Since: \(lastModified)"])])
        #expect(got.map(\.status) == [200, 200, 200, 200, 304])
        #expect(got[0].body == photo && got[1].body == photo, "raw, and a skipped format, are the source's bytes")
        #expect(got[2].body != photo && got[2].header("content-type") == "image/png")
        let maxAge = got[3].header("cache-control").flatMap { $0.split(separator: "=").last?.split(separator: ",").first }.flatMap { Int($0) }
        #expect(maxAge.map { (500...600).contains($0) } == true, "the source's freshness: \(String(describing: maxAge))")
        #expect(got[3].header("last-modified") == lastModified.lowercased())
        let exif = Data("Exif\0\0".utf8)
        #expect(photo.range(of: exif) != nil && got[3].body.range(of: exif) == nil, "metadata stripped, as sm:1")
    }
}
