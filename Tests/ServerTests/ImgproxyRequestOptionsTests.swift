import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's request options — presets, `dpr`, `cb`, `exp`, `fn`, `att` — parsed, and
/// answered over HTTP with URLs from imgproxy's own builder, the images read back by Pillow.
@Suite("imgproxy's presets and request options", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImgproxyRequestOptionsTests {
    static let presets = ["thumb=rs:fill:64:48/q:70", "small=w:32", "default=q:55", "both=pr:thumb/pr:small"]

    @Test func presetsApplyInOrderAfterTheDefault() throws {
        let presets = try ImgproxyPresets(definitions: Self.presets)
        let source = "plain/http://img.example/a.jpg"
        let plain = try ImgproxyPath("/_/w:10/" + source, presets: presets).options
        #expect(plain.quality == 55 && plain.width == 10, "the default preset applies first")
        let thumb = try ImgproxyPath("/_/q:90/pr:thumb/" + source, presets: presets).options
        #expect(thumb.resizingType == .fill && thumb.width == 64 && thumb.height == 48 && thumb.quality == 70, "later wins")
        let nested = try ImgproxyPath("/_/pr:both/" + source, presets: presets).options
        #expect(nested.width == 32 && nested.height == 48)
        let only = try ImgproxyPath("/_/thumb:small/" + source, presets: presets, onlyPresets: true).options
        #expect(only.width == 32 && only.height == 48 && only.quality == 70)
        #expect(throws: ImgproxyError.unsupported("option thumb")) { try ImgproxyPath("/_/thumb:small/" + source, presets: presets) }
        #expect(throws: ImgproxyError.malformed("unknown preset nope")) { try ImgproxyPath("/_/pr:nope/" + source, presets: presets) }
        // imgproxy passes over a preset already being applied (its TestParsePathPresetLoopDetection).
        let loops = try ImgproxyPresets(definitions: ["a=rt:fill/pr:b", "b=w:7/pr:a"])
        let looped = try ImgproxyPath("/_/pr:a/" + source, presets: loops).options
        #expect(looped.resizingType == .fill && looped.width == 7)
        #expect(throws: ImgproxyError.unsupported("option xyz")) { try ImgproxyPresets(definitions: ["bad=xyz:1"]) }
    }

    /// What proxies do to paths, undone before the signature is checked, as imgproxy's fixPath does.
    @Test func mergedSlashesAndEncodedColonsAreRepaired() throws {
        let merged = try ImgproxyPath("/_/rs%3Afit%3A10%3A20/plain/http:/img.example/a.jpg")
        #expect(merged.source.absoluteString == "http://img.example/a.jpg")
        #expect(merged.signedPart == "/rs:fit:10:20/plain/http://img.example/a.jpg")
        #expect(merged.options.width == 10 && merged.options.height == 20)
        #expect(try ImgproxyPath("/_/plain/local:/photos/a.jpg").source.absoluteString == "local:///photos/a.jpg")
        #expect(try ImgproxyPath("/_/plain/https://img.example/a.jpg").signedPart == "/plain/https://img.example/a.jpg")
        // imgproxy's `(\S+):/([^/])` takes the last such colon before white space, whatever it follows.
        #expect(try ImgproxyPath("/_/plain/http://img.example/a:/b.jpg").signedPart == "/plain/http://img.example/a://b.jpg")
        #expect(try ImgproxyPath("/_/plain/http:/img.example/a b:/c.jpg").signedPart == "/plain/http://img.example/a b:/c.jpg")
    }

    /// A combining mark after a slash does not hide it (FuzzImgproxyPath found the signature
    /// taken for the whole path, so a wrong signature was 404 instead of 403).
    @Test func pathsSplitOnTheSlashItselfNotOnGraphemes() throws {
        let signed = try ImgproxyPath.Signed("/AAAA/\u{0619}w:10/plain/http://a.example/b.jpg")
        #expect(signed.signature == "AAAA" && signed.signedPart.unicodeScalars.first == "/")
        #expect(throws: ImgproxyError.unsupported("option \u{0301}h")) { try ImgproxyPath("/_/w:10/\u{0301}h:20/plain/http://a.example/b.jpg") }
    }

    /// The repair's scan against the regex imgproxy uses, on sources made of the characters
    /// that matter to it (Go's `\s` is ASCII: tab, newline, form feed, carriage return, space).
    @Test func theSlashRepairMatchesImgproxysRegex() {
        let regex = (try! Regex(#"^(\S+):/([^/])"#)).asciiOnlyWhitespace()
        let pieces = [":", "/", "//", "a", "local", "http", " ", "\t", "é", "%3A", "."]
        var generator = SeededGenerator(seed: 43)
        for _ in 0..<3_000 {
            let source = (0..<Int.random(in: 0...9, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var expected = source
            if let match = source.firstMatch(of: regex), let scheme = match.output[1].substring, let next = match.output[2].substring {
                expected.replaceSubrange(match.range, with: scheme + (scheme == "local" ? ":///" : "://") + next)
            }
            #expect(ImgproxyPath.withSlashRestored(Substring(source)) == expected, "\(source.debugDescription)")
        }
    }

    @Test func dprCachebusterExpiresAndFilenameParse() throws {
        let options = try ImgproxyPath("/_/w:100/dpr:2/cb:v7/exp:1700000000/fn:aGVsbG8gd29ybGQ:1/att:1/plain/http://a.example/b.jpg").options
        #expect(options.dpr == 2 && options.cacheBuster == "v7" && options.returnsAttachment == true)
        #expect(options.expires == Date(timeIntervalSince1970: 1_700_000_000) && options.filename == "hello world")
        #expect(try ImgproxyPath("/_/fn:caf%C3%A9/plain/http://a.example/b.jpg").options.filename == "café")
        #expect(throws: ImgproxyError.malformed("dpr must be above 0, at most 8")) { try ImgproxyPath("/_/dpr:0/plain/http://a.example/b.jpg") }
    }

    @Test func answersFollowTheRequestOptions() async throws {
        let harness = try ServerUnderTest {
            $0.presets = try! ImgproxyPresets(definitions: Self.presets)
            $0.developmentErrors = true  // the reason for the 404 is checked below
        }
        defer { harness.stop() }
        let photo = harness.source("photo.jpg")
        let future = Int(Date().timeIntervalSince1970) + 3_600
        // imgproxy's builder puts `rs:…:0:0` after the options it is given, which resets a
        // preset's sizes (in imgproxy too): those paths are signed here.
        let keys = harness.service.configuration.signingKeys
        let byHand = ["/pr:thumb/cb:v2/fn:holiday%20pic/att:1/plain/\(photo)", "/pr:thumb/cb:v3/plain/\(photo)"].map(keys.signed)
        let paths = try byHand + harness.paths([
            .init(url: photo, width: 60, advanced: ["dpr:2"]),
            .init(url: photo, width: 60, advanced: ["exp:1700000000"]),
            .init(url: photo, width: 60, advanced: ["exp:\(future)", "fn:caf%C3%A9%22x"]),
        ])
        let got = try await harness.fetch(paths)
        #expect(got.map(\.status) == [200, 200, 200, 404, 200])
        #expect(got[0].header("content-disposition") == "attachment; filename=\"holiday pic.jpg\"")
        #expect(got[1].header("content-disposition") == "inline; filename=\"photo.jpg\"", "the source's name")
        #expect(got[1].body == got[0].body && got[1].etag != got[0].etag, "cb changes the tag, not the image")
        #expect(got[3].text.contains("expired"))
        #expect(got[4].header("content-disposition") == "inline; filename=\"caf__x.jpg\"; filename*=utf-8''caf%c3%a9%22x.jpg",
                "(headers read lowercased)")
        let sizes = try ImgproxyLayoutOptionsTests.pillow([got[0].body, got[2].body, got[4].body]).map { [$0.width, $0.height] }
        #expect(sizes == [[64, 48], [120, 90], [60, 45]], "preset fill, 60 px at dpr 2, 60 px")
    }
}
