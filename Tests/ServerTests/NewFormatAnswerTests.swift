import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

/// Formats imgproxy's open source does not write as Osprey does: an animated source asked as
/// AVIF (every frame, as an AVIF sequence, unless the server is told to answer a still; read
/// back by Pillow), and HEIC.
@Suite("Animated AVIF and HEIC answers", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct NewFormatAnswerTests {
    typealias Abuse = ServerProcessTests.Abuse

    @Test func anAnimationAskedAsAVIFKeepsItsFramesUnlessStillsAreAsked() async throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("banana.gif", try Data(contentsOf: Corpus.file("gif/kingfisher_dancing-banana.gif")), contentType: "image/gif")
        let source = origin.url("/files/banana.gif").absoluteString
        var frames: [Int] = []
        for animates in ["true", "false"] {
            let server = try await Abuse.server([], environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "OSPREY_AVIF_ANIMATION": animates])
            let answer = try await server.fetch(Abuse.path("rs:fit:120:120", source) + ".avif")
            #expect(answer.status == 200 && answer.headers.lowercased().contains("content-type: image/avif"), "\(answer.headers)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-answer-\(UUID().uuidString).avif")
            defer { try? FileManager.default.removeItem(at: file) }
            try answer.body.write(to: file)
            let decoded = try ReferenceDecoder.decode([file], mode: .pillowFrames)[file.path]!.get()
            #expect(max(decoded.width, decoded.height) == 120)
            frames.append(decoded.frameCount)
            #expect(server.stop() == 0)
        }
        #expect(frames == [8, 1])
    }

    @Test func heicIsAnsweredAtTheSizeAsked() async throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        let server = try await Abuse.server([], environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"])
        defer { #expect(server.stop() == 0) }
        let answer = try await server.fetch(Abuse.path("rs:fit:300:300/q:70", origin.url("/files/photo.jpg").absoluteString) + ".heic")
        #expect(answer.status == 200 && answer.headers.lowercased().contains("content-type: image/heic"), "\(answer.headers)")
        let image = try ImageCodec().decode(.data(answer.body), options: DecodingOptions())
        #expect(max(image.width, image.height) == 300)
        // Not offered to a client that did not ask: an Accept naming HEIC changes nothing by itself.
        let negotiated = try await server.fetch(Abuse.path("rs:fit:300:300", origin.url("/files/photo.jpg").absoluteString),
                                                headers: ["Accept: image/heic,image/*"])
        #expect(negotiated.headers.lowercased().contains("content-type: image/jpeg"), "\(negotiated.headers)")
    }
}
