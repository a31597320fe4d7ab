import Foundation
import OspreyCodec
import OspreyTesting
import Testing

/// `osprey-server` against the abuse of its newest sources and options (issue 39): S3 keys
/// that leave their bucket, credentials sent by text prefix, GIF frames past the resolution
/// limit, answers of unbounded size, `raw` as a file proxy, and work that goes on after its
/// deadline. Each through the running server, with the inputs the issue measured; in the
/// serialized suite, so that its blocking calls take one thread of the shared pool at a time.
extension ServerProcessTests {
    enum Abuse {
        /// The inputs `craft_abuse_inputs.py` makes from a photo, once for the suite.
        static let inputs: Result<URL, any Error> = Result {
            let folder = try TemporaryFolder.make("abuse")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Scripts/craft_abuse_inputs.py")
            let outcome = try ChildProcess.run("/usr/bin/env", ["python3", script.path, try Corpus.file("photos/jolla.jpg").path, folder.path])
            guard outcome.status == 0 else { throw Failure.inputs(outcome.output) }
            return folder
        }

        enum Failure: Error { case inputs(String) }

        /// The inputs' folder, made on a thread of its own the first time.
        static func folder() async throws -> URL { try await onThread { try inputs.get() } }

        static func input(_ name: String) throws -> Data { try Data(contentsOf: inputs.get().appendingPathComponent(name)) }

        /// An origin serving every input under `/files/NAME` (and a page at `/html`).
        static func origin() async throws -> TestHTTPServer {
            let origin = try TestHTTPServer()
            for name in try FileManager.default.contentsOfDirectory(atPath: try await folder().path) {
                origin.serve(name, try input(name))
            }
            return origin
        }

        static func server(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
            try await ServerProcess.launch(arguments: ["--allow-unsigned", "--development-errors"] + arguments, environment: environment)
        }

        /// An unsigned imgproxy path: the options, then the source base64url-encoded, so that no
        /// client on the way reads or tidies it.
        static func path(_ options: String, _ source: String) -> String {
            let encoded = Data(source.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            return "/insecure/" + (options.isEmpty ? "" : options + "/") + encoded
        }

        static func header(_ name: String, in headers: String) -> String? {
            headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }

        static func size(_ body: Data) throws -> Int {
            let info = try ImageCodec().info(.data(body))
            return max(info.width, info.height)
        }
    }

    // MARK: Route 1 and 2: S3

    @Test func s3SourcesStayInTheirBucketAndCredentialsReachTheStoreAlone() async throws {
        let photo = try Data(contentsOf: Corpus.file("photos/jolla.jpg"))
        let store = try TestHTTPServer()  // a fake S3 endpoint: it records every request
        defer { store.stop() }
        let elsewhere = try TestHTTPServer()
        defer { elsewhere.stop() }
        elsewhere.serve("photo.jpg", photo)
        for path in ["/photos/2026/jolla.jpg", "/photos/public/plain.jpg", "/other/secret.jpg", "/photos?list-type=2"] {
            store.route(path, headers: ["Content-Type": "image/jpeg"], body: photo)
        }
        store.route("/photos/moved.jpg", status: 302, headers: ["Location": elsewhere.url("/files/photo.jpg").absoluteString])
        let endpoint = "http://127.0.0.1:\(store.port)"
        let server = try await Abuse.server(["--s3-endpoint", endpoint + "/", "--allowed-source", "s3://photos/",
                                      "--allowed-source", endpoint + "/photos/public/"],
                                     environment: ["AWS_ACCESS_KEY_ID": "AKIDOSPREYTEST", "AWS_SECRET_ACCESS_KEY": "secret",
                                                   "AWS_SESSION_TOKEN": "TOKEN-OSPREY"])
        defer { #expect(server.stop() == 0) }

        let object = try await server.fetch(Abuse.path("rs:fit:64:64", "s3://photos/2026/jolla.jpg"))
        #expect(try object.status == 200 && Abuse.size(object.body) == 64)
        let signed = try #require(store.requests.first { $0.path == "/photos/2026/jolla.jpg" })
        #expect(signed.headers["authorization"]?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDOSPREYTEST/") == true)
        #expect(signed.headers["x-amz-security-token"] == "TOKEN-OSPREY")

        // Out of the bucket, or another operation than a GET of an object: refused, never sent.
        let escapes = ["s3://photos/../other/secret.jpg", "s3://photos/%2e%2e/other/secret.jpg", "s3://photos/a/./../../other/secret.jpg",
                       "s3://photos?list-type=2", "s3://photos/x.jpg?", "s3://photos:8080/2026/jolla.jpg", "s3://key:secret@photos/2026/jolla.jpg",
                       "s3://photos/2026/jolla.jpg#x"]
        for source in escapes {
            let answer = try await server.fetch(Abuse.path("rs:fit:64:64", source))
            #expect(answer.status == 404 && answer.body.starts(with: Data("Invalid source URL".utf8)), "\(source): \(String(decoding: answer.body, as: UTF8.self))")
        }
        // A query is the object's version, as imgproxy reads it: sent as versionId, never as
        // another operation (the `acl` subresource here).
        _ = try await server.fetch(Abuse.path("rs:fit:64:64", "s3://photos/x.jpg?acl"))
        #expect(store.requests.contains { $0.path == "/photos/x.jpg?versionId=acl" } && !store.requests.contains { $0.path.hasSuffix("?acl") })
        // The store's own address is just another URL: refused unless allowed, and never signed.
        #expect(try await server.fetch(Abuse.path("", endpoint + "/photos/2026/jolla.jpg")).status == 404)
        let plain = try await server.fetch(Abuse.path("rs:fit:64:64", endpoint + "/photos/public/plain.jpg"))
        #expect(plain.status == 200)
        let unsigned = try #require(store.requests.first { $0.path == "/photos/public/plain.jpg" })
        #expect(unsigned.headers.keys.allSatisfy { $0 != "authorization" && !$0.hasPrefix("x-amz-") }, "\(unsigned.headers)")
        // A signed request follows no redirect: the credentials go nowhere else.
        #expect(try await server.fetch(Abuse.path("rs:fit:64:64", "s3://photos/moved.jpg")).status == 404)
        #expect(elsewhere.requests.isEmpty)
        #expect(store.requests.map(\.path).sorted() == ["/photos/2026/jolla.jpg", "/photos/moved.jpg", "/photos/public/plain.jpg", "/photos/x.jpg?versionId=acl"])
    }

    // MARK: Route 3: GIF frames

    @Test func everyGIFFrameIsCheckedAgainstTheResolutionLimit() async throws {
        let origin = try await Abuse.origin()
        defer { origin.stop() }
        let server = try await Abuse.server(["--allowed-source", origin.url("/").absoluteString, "--max-source-resolution", "1"])
        defer { #expect(server.stop() == 0) }
        // A 1x1 screen, a 0x0 frame, then frames of 65535x1000: over 1 megapixel each.
        for name in ["tall_frame.gif", "tall_frames.gif"] {
            let answer = try await server.fetch(Abuse.path("f:webp", origin.url("/files/\(name)").absoluteString))
            #expect(answer.status == 422 && String(decoding: answer.body, as: UTF8.self).hasPrefix("Invalid source image: image is 65535x1000, over the limit"),
                    "\(name): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        #expect(try await server.fetch(Abuse.path("f:webp", origin.url("/files/ten_frames.gif").absoluteString)).status == 200)
    }

    // MARK: Route 4: the answer's size

    @Test func theAnswersPixelsAreBudgetedBeforeAnyProcessorRuns() async throws {
        let origin = try await Abuse.origin()
        defer { origin.stop() }
        // A source limit of 16 megapixels, as imgproxy's default; the answer's follows it.
        let server = try await Abuse.server(["--allowed-source", origin.url("/").absoluteString, "--max-source-resolution", "16", "--timeout", "60"])
        defer { #expect(server.stop() == 0) }
        let pixel = origin.url("/files/one_pixel.png").absoluteString
        let over = [(pixel, "pd:4000/f:png"), (origin.url("/files/ten_frames.gif").absoluteString, "pd:1000/f:webp"),
                    (pixel, "rs:fit:16384:16384/el:1/f:png"), (pixel, "rs:fit:4000:4000/el:1/ex:1/pd:10/f:png")]
        for (source, options) in over {
            let before = server.cpuSeconds
            let answer = try await server.fetch(Abuse.path(options, source))
            #expect(answer.status == 422 && String(decoding: answer.body, as: UTF8.self).contains("pixels"), "\(options)")
            #expect(server.cpuSeconds - before < Sanitizer.scaled(0.5), "\(options) is refused before any pixel is made")
        }
        let padded = try await server.fetch(Abuse.path("pd:100/f:png", pixel))
        #expect(try padded.status == 200 && Abuse.size(padded.body) == 201)
        // A blur's cost does not grow with its sigma: bl:100 costs about what bl:5 does.
        let photo = origin.url("/files/photo_1800k.png").absoluteString
        var costs: [Double] = []
        for options in ["bl:5/f:jpg", "bl:100/f:jpg"] {
            let before = server.cpuSeconds
            #expect(try await server.fetch(Abuse.path(options, photo)).status == 200)
            costs.append(server.cpuSeconds - before)
        }
        #expect(costs[1] < 2 * costs[0] + 0.1, "bl:5 \(costs[0]) s, bl:100 \(costs[1]) s")
    }

    // MARK: Route 5: raw and skip_processing

    @Test func rawAndSkipProcessingAnswerImagesOnlyFromTheSharedDownload() async throws {
        let origin = try await Abuse.origin()
        defer { origin.stop() }
        let local = try await Abuse.folder()
        let server = try await Abuse.server(["--allowed-source", origin.url("/").absoluteString, "--allowed-source", "local:///",
                                      "--local-root", local.path, "--max-source-size", "2"])
        defer { #expect(server.stop() == 0) }
        let page = try await server.fetch(Abuse.path("raw:1", origin.url("/html").absoluteString))
        #expect(page.status == 422 && !String(decoding: page.body, as: UTF8.self).contains("Sign in"))
        #expect(Abuse.header("X-Content-Type-Options", in: page.headers) == "nosniff")
        let photo = try Abuse.input("small.png")
        for _ in 0..<2 {
            let raw = try await server.fetch(Abuse.path("raw:1", origin.url("/files/small.png").absoluteString))
            #expect(raw.status == 200 && raw.body == photo)
            #expect(Abuse.header("Content-Type", in: raw.headers) == "image/png")
            #expect(Abuse.header("X-Content-Type-Options", in: raw.headers) == "nosniff")
            #expect(Abuse.header("Content-Security-Policy", in: raw.headers) == "script-src 'none'")
        }
        #expect(origin.hits("/files/small.png") == 1, "two raw answers, one download")
        // skp with another format is processed from the same download; with its own, passed on.
        let processed = try await server.fetch(Abuse.path("skp:png/rs:fit:100:100", origin.url("/files/big.jpg").absoluteString))
        #expect(try processed.status == 200 && Abuse.size(processed.body) == 100)
        let skipped = try await server.fetch(Abuse.path("skp:jpg/rs:fit:100:100", origin.url("/files/big.jpg").absoluteString))
        #expect(try skipped.status == 200 && skipped.body == Abuse.input("big.jpg"))
        #expect(origin.hits("/files/big.jpg") == 1)
        // A local file over --max-source-size (2 MB) is refused, not read whole.
        #expect(try await server.fetch(Abuse.path("raw:1", "local:///photo_1800k.png")).status == 422)
        #expect(try await server.fetch(Abuse.path("raw:1", "local:///small.png")).status == 200)
    }

    // MARK: Work past its deadline

    /// A request that runs well past its deadline in one kind of work.
    struct LongWork: Sendable, CustomTestStringConvertible {
        let kind: String
        let file: String
        let options: String
        var testDescription: String { kind }
    }

    static let longWork = [
        LongWork(kind: "GIF decoder", file: "frames.gif", options: "f:webp/rs:fit:1000:1000"),
        LongWork(kind: "PNG decoder", file: "big.png", options: "rs:fit:333:333"),
        LongWork(kind: "resample", file: "small.png", options: "rs:fit:7000:7000/el:1"),
        LongWork(kind: "blur", file: "big.png", options: "bl:40"),
        LongWork(kind: "sharpen", file: "big.png", options: "sh:40"),
        LongWork(kind: "watermark", file: "big.png", options: "wm:0.8:re"),
    ]

    @Test(arguments: longWork)
    func aRequestPastItsDeadlineStopsUsingItsWorker(_ work: LongWork) async throws {
        let origin = try await Abuse.origin()
        defer { origin.stop() }
        let mark = try await Abuse.folder().appendingPathComponent("mark.png").path
        let path = Abuse.path(work.options, origin.url("/files/\(work.file)").absoluteString)
        // The work's own time on this machine today, up to 3 s: the deadline under test is a
        // third of it (1 s past 3 s), so it falls inside the work however fast the machine is.
        let probe = try await Abuse.server(["--allowed-source", origin.url("/").absoluteString, "--timeout", "3", "--watermark", mark])
        let started = ContinuousClock.now
        let probed = try await probe.fetch(path)
        let took = ContinuousClock.now - started
        #expect(probe.stop() == 0)
        try #require([200, 503].contains(probed.status), "\(work.kind): \(String(decoding: probed.body, as: UTF8.self))")
        let deadline = probed.status == 503 ? 1 : max(0.05, Double(took.components.seconds) / 3 + Double(took.components.attoseconds) / 3e18)
        let server = try await Abuse.server(["--allowed-source", origin.url("/").absoluteString, "--timeout", String(format: "%.3f", deadline),
                                             "--watermark", mark])
        defer { #expect(server.stop() == 0) }
        let answer = try await server.fetch(path)
        let atDeadline = server.cpuSeconds
        #expect(answer.status == 503, "\(work.kind) ran past its deadline: \(String(decoding: answer.body, as: UTF8.self))")
        try await Task.sleep(for: Sanitizer.scaled(.seconds(2)))
        let after = server.cpuSeconds - atDeadline
        #expect(after <= Sanitizer.scaled(0.2), "\(work.kind) used \(after) CPU-seconds after its 503")
    }
}
