import Foundation
import OspreyCodec
import OspreyDomain
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's `preserve_hdr` (`ph`, `IMGPROXY_PRESERVE_HDR`): a 16-bit PNG source answered as
/// a 16-bit PNG or a 10-bit AVIF when asked, 8-bit otherwise, and 8-bit whenever a processor
/// changes its pixels (crops, turns, flips and resizes keep the depth).
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
                "/x/ph:1/c:20:12/rot:90/fl:1:0/plain/\(source)", "/x/ph:1/ex:1/rs:fit:40:40:1/plain/\(source)",
            ])
            #expect(Self.depth(answers[0]) == (preserves ? 16 : 8), "the server's default")
            #expect(Self.depth(answers[1]) == 16 && Self.depth(answers[2]) == 8)
            #expect(Self.depth(answers[3]) == 8, "a blur works on 8-bit samples")
            #expect(answers[4].status == 200 && answers[4].body.starts(with: [0xFF, 0xD8]), "JPEG carries 8 bits")
            #expect(try ImageCodec().info(.data(answers[5].body)).bitDepth == 10, "AVIF carries 10")
            #expect(Self.depth(answers[6]) == 16, "a crop, a quarter turn and a flip move 16-bit pixels")
            #expect(Self.depth(answers[7]) == 8, "extending pads 8-bit samples")
        }
    }

    @Test func anHDRSourceKeepsItsSignalWhereTheAnswerCanSayIt() async throws {
        let server = try ServerUnderTest { service in service.trustedSignatures = ["x"] }
        defer { server.stop() }
        server.origin.serve("pq.avif", try Data(contentsOf: Corpus.file("avif/libavif_colors_hdr_p3.avif")), contentType: "image/avif")
        let source = server.source("pq.avif")
        let answers = try await server.fetch([
            "/x/rs:fit:64:64/ph:1/plain/\(source)@avif", "/x/rs:fit:64:64/ph:1/plain/\(source)@png", "/x/rs:fit:64:64/plain/\(source)@avif",
            "/x/rs:fit:64:64/ph:1/plain/\(source)@jpg", "/x/rs:fit:64:64/plain/\(source)@jpg",
        ])
        let codec = ImageCodec()
        let kept = try codec.info(.data(answers[0].body))
        #expect(kept.bitDepth == 10 && kept.colorProfile?.contains("CICP 12/16") == true, "\(kept)")
        #expect(Self.depth(answers[1]) == 16 && answers[1].body.range(of: Data("cICP".utf8) + Data([12, 16, 0, 1])) != nil)
        let mapped = try codec.info(.data(answers[2].body))
        #expect(mapped.bitDepth == 8 && mapped.colorProfile?.contains("HDR") != true, "\(mapped)")
        // JPEG carries 8 bits: tone-mapped, as without `ph`.
        let withPH = try codec.decode(.data(answers[3].body), options: DecodingOptions())
        let without = try codec.decode(.data(answers[4].body), options: DecodingOptions())
        #expect(ReferenceDecoder.psnr(withPH.pixels, without.pixels) >= 35)
    }
}
