import Foundation
import Osprey
import OspreyCodec
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's sizing, cropping, trimming, extending and watermark options, in URLs from
/// imgproxy's own builder, answered over HTTP and read back by Pillow.
@Suite("imgproxy's sizes, crops, trim, extend and watermark", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImgproxyGeometryTests {
    typealias Spec = ServerProcessTests.Spec

    @Test func argumentsParseAsImgproxyReadsThem() throws {
        func options(_ text: String) throws -> ImgproxyOptions { try ImgproxyPath("/_/\(text)/plain/http://a.example/b.jpg").options }
        #expect(try options("g:nowe:10:20").gravity == ImgproxyGravity(.nowe, x: 10, y: 20))
        #expect(try options("g:fp:0.25:0.75").gravity == ImgproxyGravity(.fp, x: 0.25, y: 0.75))
        #expect(throws: ImgproxyError.malformed("gravity fp takes x and y from 0 to 1")) { try options("g:fp:2:0") }
        #expect(try options("mw:80/mh:90").minWidth == 80 && options("mh:90").minHeight == 90)
        #expect(try options("z:2").zoom == .init(x: 2, y: 2) && options("z:0.5:1.5").zoom == .init(x: 0.5, y: 1.5))
        #expect(try options("el:1").enlarge && options("rs:fit:10:10:1").enlarge)
        #expect(try options("ex:1:so:0:5").extend == ImgproxyGravity(.so, x: 0, y: 5) && options("ex:0").extend == nil)
        #expect(try options("rs:fit:10:10:0:1").extend == ImgproxyGravity())
        #expect(try options("exar:1").extendAspectRatio == ImgproxyGravity())
        #expect(try options("c:100:0.5:ea").crop == .init(width: 100, height: 0.5, gravity: ImgproxyGravity(.ea)))
        #expect(try options("t:10:ffffff:1").trim == .init(threshold: 10, color: RGBAColor(red: 255, green: 255, blue: 255), equalHorizontal: true))
        #expect(try options("rt:fill-down").resizingType == .fillDown && options("rt:force").resizingType == .force)
        #expect(try options("wm:0.5:re:4:4").watermark == .init(opacity: 0.5, position: nil, offsetX: 4, offsetY: 4, scale: 0))
        #expect(try options("skp:jpg:png").skipProcessing == [.jpeg, .png] && options("raw:1").raw)
        #expect(throws: ImgproxyError.malformed("watermark takes an opacity 0…1")) { try options("wm:2") }
    }

    @Test func sizesFollowImgproxysArithmetic() async throws {
        let harness = try ServerUnderTest()
        defer { harness.stop() }
        harness.origin.serve("coded.png", try Self.png(Self.coded), contentType: "image/png")
        harness.origin.serve("framed.png", try Self.png(Self.framed), contentType: "image/png")
        let (coded, framed, small) = (harness.source("coded.png"), harness.source("framed.png"), harness.source("alpha.png"))
        let got = try await harness.fetch(try harness.paths([
            Spec(url: coded, resizingType: "fill", width: 100, height: 100, gravity: "nowe:10:0", extension_: "png"),
            Spec(url: coded, extension_: "png", advanced: ["c:50:40:nowe:20:30"]),
            Spec(url: coded, extension_: "png", advanced: ["c:0.5:0.5"]),
            Spec(url: small, width: 64, height: 64, enlarge: true, extension_: "png"),
            Spec(url: small, width: 64, height: 64, extension_: "png", advanced: ["ex:1", "bg:ff0000"]),
            Spec(url: coded, width: 100, height: 100, extension_: "png", advanced: ["exar:1:no"]),
            Spec(url: coded, resizingType: "force", width: 50, height: 50, extension_: "png"),
            Spec(url: small, resizingType: "fill-down", width: 64, height: 32, extension_: "png"),
            // Scaled to 80 px wide by the minimum, then cut to the width asked, as imgproxy documents.
            Spec(url: coded, width: 50, extension_: "png", advanced: ["mw:80"]),
            Spec(url: coded, width: 100, extension_: "png", advanced: ["z:0.5"]),
            Spec(url: framed, extension_: "png", advanced: ["t:10"]),
            Spec(url: framed, extension_: "png", advanced: ["t:10:ffffff:1:0"]),
            Spec(url: coded, resizingType: "auto", width: 50, height: 100, extension_: "png"),
            Spec(url: coded, resizingType: "auto", width: 100, height: 60, extension_: "png"),
        ]))
        #expect(got.map(\.status) == Array(repeating: 200, count: 14), "\(got.map(\.text))")
        let images = try ImgproxyLayoutOptionsTests.pillow(got.map(\.body))
        let sizes = images.map { "\($0.width)x\($0.height)" }
        #expect(sizes == ["100x100", "50x40", "100x50", "64x64", "64x64", "100x100", "50x50", "32x16", "50x40", "50x25",
                          "20x20", "30x20", "50x25", "100x60"])
        #expect(Self.pixel(images[0], 0, 0).prefix(2) == [10, 0], "a fill's window moved 10 px from the west edge")
        #expect(Self.pixel(images[1], 0, 0).prefix(2) == [20, 60], "a crop 20 px across and 30 down")
        #expect(Self.pixel(images[2], 0, 0).prefix(2) == [50, 50], "the middle half")
        #expect(Self.pixel(images[4], 0, 0) == [255, 0, 0] && Self.pixel(images[4], 32, 32) != [255, 0, 0], "extended in the background")
        #expect(Self.pixel(images[5], 0, 0)[3] == 255 && Self.pixel(images[5], 0, 99)[3] == 0, "the 100x50 fit extended below to 1:1")
        #expect(Self.pixel(images[10], 0, 0) == [255, 0, 0], "the white border trimmed away")
        #expect(Self.pixel(images[11], 0, 0) == [255, 0, 0] && Self.pixel(images[11], 29, 0) == [255, 255, 255],
                "equal sides cut 5 px from each, leaving border on the right")
    }

    @Test func theWatermarkGoesWhereItIsAsked() async throws {
        let mark = try Image(width: 10, height: 10, pixelFormat: .rgb8, pixels: Array(repeating: [0, 0, 255], count: 100).flatMap { $0 })
        let markURL = URL(string: "data:image/png;base64," + (try Self.png(mark)).base64EncodedString())!
        let harness = try ServerUnderTest { $0.watermark = .url(markURL) }
        defer { harness.stop() }
        let red = try Image(width: 40, height: 40, pixelFormat: .rgb8, pixels: Array(repeating: [255, 0, 0], count: 1600).flatMap { $0 })
        harness.origin.serve("red.png", try Self.png(red), contentType: "image/png")
        let source = harness.source("red.png")
        let got = try await harness.fetch(try harness.paths(
            ["wm:1:nowe", "wm:0.5:soea", "wm:1:re:10:10", "wm:1:ce:0:0:0.5", "wm:1:nowe:-5:-5"].map {
                Spec(url: source, extension_: "png", advanced: [$0])
            }))
        #expect(got.map(\.status) == [200, 200, 200, 200, 200])
        let images = try ImgproxyLayoutOptionsTests.pillow(got.map(\.body))
        #expect(Self.pixel(images[0], 0, 0) == [0, 0, 255] && Self.pixel(images[0], 20, 20) == [255, 0, 0], "north-west")
        #expect(Self.pixel(images[1], 39, 39) == [127, 0, 128] && Self.pixel(images[1], 0, 0) == [255, 0, 0], "half opaque, south-east")
        #expect([0, 20].allSatisfy { Self.pixel(images[2], $0, $0) == [0, 0, 255] } && Self.pixel(images[2], 12, 12) == [255, 0, 0],
                "tiled 10 px apart")
        #expect(Self.pixel(images[3], 11, 11) == [0, 0, 255] && Self.pixel(images[3], 5, 5) == [255, 0, 0], "half the width, centred")
        #expect(Self.pixel(images[4], 4, 4) == [0, 0, 255] && Self.pixel(images[4], 5, 5) == [255, 0, 0], "hangs over the corner")
    }

    /// 200×100, red = x and green = 2y, so a pixel says where it came from.
    static let coded = try! Image(width: 200, height: 100, pixelFormat: .rgb8,
                                  pixels: (0..<100).flatMap { y in (0..<200).flatMap { [UInt8($0), UInt8(2 * y), 0] } })

    /// 40×40 white with a red 20×20 square 5 px from the left and 10 from the top.
    static let framed = try! Image(width: 40, height: 40, pixelFormat: .rgb8, pixels: (0..<40).flatMap { y in
        (0..<40).flatMap { x in (5..<25).contains(x) && (10..<30).contains(y) ? [255, 0, 0] : [255, 255, 255] as [UInt8] }
    })

    static func png(_ image: Image) throws -> Data {
        try ImageCodec().encode(image, options: EncodingOptions(format: .png))
    }

    static func pixel(_ image: ReferenceDecoder.Pixels, _ x: Int, _ y: Int) -> [UInt8] {
        let at = (y * image.width + x) * image.channels
        return Array(image.bytes[at..<at + image.channels])
    }
}
