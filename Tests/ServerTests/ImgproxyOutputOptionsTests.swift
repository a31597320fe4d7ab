import Foundation
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `sh`, `pix`, `fq`, `mb`, `sm`, `kcr` and `scp`, parsed and answered over HTTP
/// with URLs from imgproxy's own builder.
@Suite("imgproxy's effects and output options", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImgproxyOutputOptionsTests {
    @Test func argumentsParseAsImgproxyReadsThem() throws {
        func options(_ text: String) throws -> ImgproxyOptions { try ImgproxyPath("/_/\(text)/plain/http://a.example/b.jpg").options }
        #expect(try options("sh:1.5").sharpen == 1.5 && options("sh:0").sharpen == nil)
        #expect(try options("pix:8").pixelate == 8 && options("pix:1").pixelate == nil)
        #expect(try options("fq:jpg:60:webp:50").formatQuality == [.jpeg: 60, .webp: 50])
        #expect(throws: ImgproxyError.malformed("format_quality takes format and quality pairs")) { try options("fq:jpg") }
        #expect(try options("mb:20000").maxBytes == 20_000 && options("mb:0").maxBytes == nil)
        #expect(try options("sm:1/kcr:0/scp:0").keepsColorProfile && !options("scp:1").keepsColorProfile)
        // Metadata: everything (sm:0), authorship and rights (the default), or nothing (kcr:0).
        #expect(try !options("sm:0/kcr:1").stripsMetadata && options("sm:0/kcr:1").keepsCopyright)
        #expect(try options("sm:1/kcr:0").stripsMetadata && !options("sm:1/kcr:0").keepsCopyright)
        #expect(try options("q:80").stripsMetadata && options("q:80").keepsCopyright, "imgproxy's defaults")
    }

    @Test func answersFollowTheOutputOptions() async throws {
        let harness = try ServerUnderTest()
        defer { harness.stop() }
        harness.origin.serve("p3.jpg", try Data(contentsOf: Corpus.file("icc/nuke_image-p3.jpg")), contentType: "image/jpeg")
        let (photo, p3) = (harness.source("photo.jpg"), harness.source("p3.jpg"))
        let paths = try harness.paths([
            .init(url: photo, width: 600, extension_: "jpg"),
            .init(url: photo, width: 600, extension_: "jpg", advanced: ["fq:jpg:30"]),
            .init(url: photo, width: 600, extension_: "jpg", advanced: ["mb:15000"]),
            .init(url: photo, width: 600, extension_: "png", advanced: ["mb:15000"]),
            .init(url: p3, width: 100, extension_: "jpg", advanced: ["scp:0"]),
            .init(url: p3, width: 100, extension_: "jpg"),
            .init(url: photo, width: 120, extension_: "png", advanced: ["pix:10"]),
            .init(url: photo, width: 120, extension_: "jpg", advanced: ["sh:1"]),
            .init(url: photo, width: 120, extension_: "jpg"),
        ])
        let got = try await harness.fetch(paths)
        #expect(got.map(\.status) == Array(repeating: 200, count: paths.count))
        #expect(got[1].body.count < got[0].body.count / 2, "fq:jpg:30: \(got[1].body.count) against \(got[0].body.count) at 80")
        #expect(got[2].body.count <= 15_000 && got[0].body.count > 15_000, "mb lowers the quality until it fits: \(got[2].body.count)")
        #expect(got[3].body.count > 15_000, "PNG is not lowered")
        let profile = Data("ICC_PROFILE".utf8)
        #expect(got[4].body.range(of: profile) != nil && got[5].body.range(of: profile) == nil, "scp:0 keeps the profile")
        let pixelated = try #require(try ImgproxyLayoutOptionsTests.pillow([got[6].body]).first)
        let row = (0..<10).map { Array(pixelated.bytes[($0 * pixelated.channels)..<($0 * pixelated.channels + 3)]) }
        #expect(Set(row).count == 1, "the first ten pixels are one square")
        #expect(got[7].body != got[8].body && got[7].etag != got[8].etag, "sharpened")
    }
}
