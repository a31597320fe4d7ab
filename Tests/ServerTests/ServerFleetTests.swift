import Foundation
import OspreyTesting
import Testing

/// Several `osprey-server` instances behind one origin, sharing one real Redis: the fleet a
/// team runs when one thumbnail server is not enough.
// Serialized, and run only with OSPREY_FLEET=1: `make test` runs it after the suite, beside the
// soak. Ten server processes decoding beside the suite starved its time-bounded network tests
// (a hundred connections took 20 s to open).
@Suite("Server fleet over a shared Redis", .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["OSPREY_FLEET"] == "1", "make test runs the fleet after the suite (OSPREY_FLEET=1)"))
struct ServerFleetTests {
        static let names = (0..<50).map { "photo-\($0).jpg" }

        /// The origin: 50 JPEGs at `/origin/NAME`, listed at `/origin/`; it counts what it serves.
        static func origin() throws -> TestHTTPServer {
            let server = try TestHTTPServer()
            let photo = try Data(contentsOf: Corpus.file("jpeg/libjpeg-turbo/testorig.jpg"))
            for name in names { server.serve(name, photo, contentType: "image/jpeg") }
            return server
        }

        static func downloads(from origin: TestHTTPServer) -> Int {
            origin.requests.filter { $0.path.hasPrefix("/origin/") && $0.path != "/origin/" }.count
        }

        /// Loads every image's thumbnail through `server`; returns the tier each reported.
        static func loadAll(through server: ServerProcess, origin: TestHTTPServer, side: Int = 96) throws -> [String] {
            try names.map { name in
                let response = try server.get("/insecure/rs:fill:\(side):\(side)/plain/\(origin.url("/origin/\(name)").absoluteString)@jpg")
                guard response.status == 200, response.body.starts(with: [0xFF, 0xD8]) else { return "failed \(response.status)" }
                let line = response.headers.split(separator: "\r\n").first { $0.hasPrefix("server-timing:") }
                return line.map { String($0.dropFirst("server-timing:".count).prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }
                    ?? "none"
            }
        }

        static func instance(upstream origin: TestHTTPServer, redis: RedisServer?) throws -> ServerProcess {
            try ServerProcess.start(arguments: ["--allow-unsigned", "--allowed-source", origin.url("/origin/").absoluteString]
                                    + (redis.map { ["--shared-cache", $0.url] } ?? []))
        }

        @Test func threeInstancesDownloadEachOriginalOnceWithTheSharedTierAndThreeTimesWithout() throws {
            let redis = try RedisServer()
            let origin = try Self.origin()
            var tiers: [[String]] = []
            // A and B ask for the same answers, C for another size of the same photos.
            for side in [96, 96, 64] {
                let server = try Self.instance(upstream: origin, redis: redis)
                tiers.append(try Self.loadAll(through: server, origin: origin, side: side))
                #expect(server.stop() == 0)
            }
            #expect(Self.downloads(from: origin) == 50, "the fleet downloaded each original once")
            #expect(tiers[0] == Array(repeating: "network", count: 50))
            #expect(tiers[1] == Array(repeating: "answer-shared", count: 50), "instance B found A's answers in Redis")
            #expect(tiers[2] == Array(repeating: "shared", count: 50), "instance C found every original there")

            let alone = try Self.origin()
            for _ in 0..<3 {
                let server = try Self.instance(upstream: alone, redis: nil)
                #expect(try Self.loadAll(through: server, origin: alone) == Array(repeating: "network", count: 50))
                #expect(server.stop() == 0)
            }
            #expect(Self.downloads(from: alone) == 150, "without the shared tier every instance downloads every original")
            withExtendedLifetime(redis) {}
        }

        @Test func killingRedisLosesNoRequestAndTheFleetUsesItAgainWhenItReturns() throws {
            let redis = try RedisServer()
            let origin = try Self.origin()
            let a = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: a, origin: origin) == Array(repeating: "network", count: 50))
            redis.kill()
            let b = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: b, origin: origin) == Array(repeating: "network", count: 50),
                    "with Redis gone every image still arrives, from the origin")
            #expect(Self.downloads(from: origin) == 100)

            try redis.restart()  // empty: the restarted Redis kept nothing
            Thread.sleep(forTimeInterval: 1.5)  // past the retry interval of 1 s
            let c = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: c, origin: origin) == Array(repeating: "network", count: 50))
            let d = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: d, origin: origin) == Array(repeating: "answer-shared", count: 50),
                    "C refilled the restarted Redis and D read from it")
            #expect(try Self.loadAll(through: d, origin: origin, side: 64) == Array(repeating: "shared", count: 50))
            #expect(Self.downloads(from: origin) == 150)
            // B noticed the outage once in its log, not once per request.
            let log = (try? String(contentsOf: b.log, encoding: .utf8)) ?? ""
            #expect(log.components(separatedBy: "shared cache unavailable").count - 1 == 1, "\(log.suffix(1000))")
            for server in [a, b, c, d] { #expect(server.stop() == 0) }
        }
    }
