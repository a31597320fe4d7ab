import Foundation
import OspreyCodec
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `preserve_hdr` (`ph`, `IMGPROXY_PRESERVE_HDR`): a 16-bit PNG source answered as
/// a 16-bit PNG or a 10-bit AVIF when asked, 8-bit otherwise, and 8-bit whenever a processor
/// touches its pixels.
@Suite("preserve_hdr", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct PreserveHighBitDepthTests {
    /// IHDR's bit depth of a PNG answer, or nil for another answer.
    static func depth(_ answer: CurlGet) -> UInt8? {
        answer.status == 200 && answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]) && answer.body.count > 24 ? answer.body[24] : nil
    }

    @Test func sixteenBitsAreKeptWhereAsked() async throws {
        for preserves in [false, true] {
            let server = try ServerUnderTest { service in
                service.trustedSignatures = ["x"]
                service.preservesHighBitDepth = preserves
            }
            defer { server.stop() }
            server.origin.serve("deep.png", try Data(contentsOf: Corpus.file("pngsuite/basn2c16.png")), contentType: "image/png")
            let source = server.source("deep.png")
            let answers = try await server.fetch([
                "/x/rs:fit:16:16/plain/\(source)", "/x/rs:fit:16:16/ph:1/plain/\(source)", "/x/rs:fit:16:16/ph:0/plain/\(source)",
                "/x/rs:fit:16:16/ph:1/bl:1/plain/\(source)", "/x/ph:1/plain/\(source)@jpg", "/x/ph:1/plain/\(source)@avif",
            ])
            #expect(Self.depth(answers[0]) == (preserves ? 16 : 8), "the server's default")
            #expect(Self.depth(answers[1]) == 16 && Self.depth(answers[2]) == 8)
            #expect(Self.depth(answers[3]) == 8, "a blur works on 8-bit samples")
            #expect(answers[4].status == 200 && answers[4].body.starts(with: [0xFF, 0xD8]), "JPEG carries 8 bits")
            #expect(try ImageCodec().info(.data(answers[5].body)).bitDepth == 10, "AVIF carries 10")
        }
    }
}
