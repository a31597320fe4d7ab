import Foundation
import OspreyTesting
import Testing

/// imgproxy settings that used to stop the start, started from imgproxy's variables and
/// checked against what imgproxy's docs say they do.
@Suite("imgproxy's settings, as its docs say", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct ImgproxyV4SettingsTests {
    typealias Abuse = ServerProcessTests.Abuse

    static func origin() throws -> TestHTTPServer {
        let origin = try TestHTTPServer()
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        origin.serve("mark.png", try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png")), contentType: "image/png")
        return origin
    }

    @Test func theWatermarkURLIsFetchedOnceItsOpacityMultipliesAndSourcesSeeTheUserAgent() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let common = ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_WATERMARK_URL": origin.url("/files/mark.png").absoluteString,
                      "IMGPROXY_USER_AGENT": "images-frontend/%current_version (+ops@example.com)"]
        let photo = origin.url("/files/photo.jpg").absoluteString
        var answers: [Data] = []
        for (opacity, option) in [("0.5", "wm:1:ce"), ("1", "wm:0.5:ce"), ("1", "wm:1:ce")] {
            let server = try await Abuse.server([], environment: common.merging(["IMGPROXY_WATERMARK_OPACITY": opacity]) { $1 })
            let answer = try await server.fetch(Abuse.path("rs:fit:200:200/\(option)/f:png", photo))
            #expect(answer.status == 200, "\(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            answers.append(answer.body)
            #expect(server.stop() == 0)
        }
        #expect(answers[0] == answers[1], "the setting multiplies the URL's opacity, as imgproxy's docs say")
        #expect(answers[0] != answers[2])
        #expect(origin.hits("/files/mark.png") == 3, "fetched once by each server, at start")
        let agents = Set(origin.requests.map { $0.headers["user-agent"] ?? "" })
        #expect(agents == ["images-frontend/0.1.0 (+ops@example.com)"], "\(agents)")
    }

    @Test func aWatermarkURLOutsideTheAllowListStopsTheStart() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let outcome = try ChildProcess.run(ServerProcess.buildFolder.appendingPathComponent("osprey-server").path, ["--allow-unsigned", "--port", "0"],
                                           environment: ["IMGPROXY_WATERMARK_URL": origin.url("/files/mark.png").absoluteString])
        #expect(outcome.status != 0 && outcome.output.contains("the watermark"), "loopback sources are refused by default: \(outcome.output)")
        #expect(origin.hits("/files/mark.png") == 0)
    }

    @Test func urlsAreReadWithTheSeparatorFileNamesReplacementsAndAllowedOptionsGiven() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let server = try await Abuse.server([], environment: [
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_ARGUMENTS_SEPARATOR": ",", "IMGPROXY_BASE64_URL_INCLUDES_FILENAME": "true",
            "IMGPROXY_URL_REPLACEMENTS": "photos://=\(origin.url("/files/").absoluteString);nowhere://=http://10.0.0.1/",
            "IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "rs,q", "IMGPROXY_MAX_RESULT_DIMENSION": "100",
        ])
        defer { #expect(server.stop() == 0) }
        let source = Abuse.path("", "photos://photo.jpg").dropFirst("/insecure/".count)
        let answer = try await server.fetch("/insecure/rs,fit,300,300/q,70/\(source).png/a-puppy.png")
        #expect(answer.status == 200, "\(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        #expect(try Abuse.size(answer.body) == 100, "fit in 300, then down to the 100 px bound, as imgproxy scales")
        #expect(try await server.fetch("/insecure/rs,fit,300,300/bl,5/\(source).png").status == 404, "bl is not an allowed option")
        #expect(try await server.fetch("/insecure/rs:fit:300:300/\(source).png").status == 404, "`:` is not the separator here")
    }

    @Test func sourcesGoThroughTheProxyWithTheirAddressCheckedFirst() async throws {
        let origin = try Self.origin()
        let proxy = try ConnectProxy(upstream: "127.0.0.1:\(origin.port)")
        defer { origin.stop(); proxy.stop() }
        let server = try await Abuse.server([], environment: ["HTTP_PROXY": proxy.url, "NO_PROXY": "cdn.example"])
        defer { #expect(server.stop() == 0) }
        // 203.0.113.5 (a documentation address, public to the policy) is asked of the proxy,
        // which tunnels to the origin; the private and loopback ones never reach it.
        let answer = try await server.fetch(Abuse.path("rs:fit:100:100/f:png", "http://203.0.113.5:8080/files/photo.jpg"))
        #expect(answer.status == 200, "\(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        for refused in ["http://10.1.2.3/files/photo.jpg", "http://127.0.0.1:\(origin.port)/files/photo.jpg"] {
            #expect(try await server.fetch(Abuse.path("rs:fit:100:100", refused)).status == 404, "\(refused)")
        }
        #expect(proxy.requests() == ["CONNECT 203.0.113.5:8080 HTTP/1.1"])
        #expect(origin.hits("/files/photo.jpg") == 1)
        let invalid = try ChildProcess.run(ServerProcess.buildFolder.appendingPathComponent("osprey-server").path, ["--allow-unsigned", "--port", "0"],
                                           environment: ["HTTPS_PROXY": "ftp://proxy.internal"])
        #expect(invalid.status != 0 && invalid.output.contains("HTTPS_PROXY"), "\(invalid.output)")
    }

    @Test func theLastModifiedBusterRaisesOlderSourcesLastModified() async throws {
        let origin = try Self.origin()
        defer { origin.stop() }
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        origin.serve("old.jpg", photo, contentType: "image/jpeg", headers: ["Last-Modified": "Wed, 01 Jan 2025 00:00:00 GMT"])
        origin.serve("new.jpg", photo, contentType: "image/jpeg", headers: ["Last-Modified": "Fri, 01 May 2026 00:00:00 GMT"])
        let server = try await Abuse.server([], environment: ["IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true",
                                                              "IMGPROXY_LAST_MODIFIED_BUSTER": "2026-01-01T00:00:00Z"])
        defer { #expect(server.stop() == 0) }
        let old = Abuse.path("rs:fit:50:50", origin.url("/files/old.jpg").absoluteString)
        let first = try await server.fetch(old)
        #expect(first.headers.lowercased().contains("last-modified: thu, 01 jan 2026 00:00:00 gmt"), "\(first.headers)")
        #expect(try await server.fetch(old, headers: ["If-Modified-Since: Wed, 01 Jan 2025 00:00:00 GMT"]).status == 200,
                "a client's copy from before the buster is not confirmed")
        #expect(try await server.fetch(old, headers: ["If-Modified-Since: Thu, 01 Jan 2026 00:00:00 GMT"]).status == 304)
        let newer = try await server.fetch(Abuse.path("rs:fit:50:50", origin.url("/files/new.jpg").absoluteString))
        #expect(newer.headers.lowercased().contains("last-modified: fri, 01 may 2026 00:00:00 gmt"), "\(newer.headers)")
        let invalid = try ChildProcess.run(ServerProcess.buildFolder.appendingPathComponent("osprey-server").path, ["--allow-unsigned", "--port", "0"],
                                           environment: ["IMGPROXY_LAST_MODIFIED_BUSTER": "yesterday"])
        #expect(invalid.status != 0 && invalid.output.contains("IMGPROXY_LAST_MODIFIED_BUSTER"), "\(invalid.output)")
    }
}
