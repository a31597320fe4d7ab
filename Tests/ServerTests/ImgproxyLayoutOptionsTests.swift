import Foundation
import Hummingbird
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `rotate`, `padding` and `background`, parsed and answered over HTTP with URLs
/// from imgproxy's own builder, the answers read back by Pillow.
@Suite("imgproxy's rotate, padding and background", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ImgproxyLayoutOptionsTests {
    @Test func argumentsParseAsImgproxyReadsThem() throws {
        func options(_ text: String) throws -> ImgproxyOptions { try ImgproxyPath("/_/\(text)/plain/http://a.example/b.jpg").options }
        #expect(try options("rot:-90").rotation == 270 && options("rot:450").rotation == 90)
        #expect(throws: ImgproxyError.malformed("rotate takes a multiple of 90")) { try options("rot:45") }
        #expect(try options("pd:10").padding == [10, 10, 10, 10])
        #expect(try options("pd:10:20").padding == [10, 20, 10, 20])
        #expect(try options("pd:1:2:3").padding == [1, 2, 3, 2] && options("pd:1:2:3:4").padding == [1, 2, 3, 4])
        #expect(try options("pd::5").padding == [0, 5, 0, 5] && options("pd:0").padding == nil)
        #expect(try options("bg:255:0:10").background == RGBAColor(red: 255, green: 0, blue: 10))
        #expect(try options("bg:00ff80").background == RGBAColor(red: 0, green: 255, blue: 128))
        #expect(try options("bg:00ff80/bg:").background == nil, "no argument clears it")
        #expect(throws: ImgproxyError.malformed("background: R, G and B are 0…255")) { try options("bg:256:0:0") }
    }

    @Test func answersAreTurnedPaddedAndFilled() async throws {
        let harness = try ServerUnderTest()
        defer { harness.stop() }
        let (photo, alpha) = (harness.source("photo.jpg"), harness.source("alpha.png"))
        let paths = try harness.paths([
            .init(url: photo, width: 60, advanced: ["rot:90"]),
            .init(url: alpha, width: 16, extension_: "png", advanced: ["pd:10:20", "bg:ff0000"]),
            .init(url: alpha, width: 16, extension_: "png", advanced: ["pd:5", "dpr:2"]),
        ])
        let got = try await harness.fetch(paths)
        #expect(got.map(\.status) == [200, 200, 200])
        let pixels = try Self.pillow(got.map(\.body))
        #expect(pixels[0].width == 60 && pixels[0].height == 80, "the box is the turned result's: \(pixels[0].width)x\(pixels[0].height)")
        #expect(pixels[1].width == 56 && pixels[1].height == 36 && pixels[1].channels == 3, "16 px and the padding, alpha filled")
        #expect(Array(pixels[1].bytes.prefix(3)) == [255, 0, 0], "the padding is the background")
        #expect(pixels[2].width == 52 && pixels[2].height == 52 && pixels[2].channels == 4, "32 px at dpr 2, padding 5 × 2")
        #expect(pixels[2].bytes[3] == 0, "padding without a background is transparent")
    }

    /// The images as Pillow decodes them.
    static func pillow(_ images: [Data]) throws -> [ReferenceDecoder.Pixels] {
        let folder = try TemporaryFolder.make("answers")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try images.enumerated().map { index, data in
            let file = folder.appendingPathComponent("\(index).img")
            try data.write(to: file)
            return file
        }
        let decoded = try ReferenceDecoder.decode(files, mode: .pillow)
        return try files.map { try #require(try decoded[$0.path]?.get()) }
    }
}
