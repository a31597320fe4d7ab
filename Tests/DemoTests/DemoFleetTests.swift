import Foundation
import OspreyTesting
import Testing

/// Several `osprey-demo` instances behind one upstream origin, sharing one real Redis: the
/// fleet a team runs when one thumbnail server is not enough.
// Nested in the gallery's serialized suite, and run only with OSPREY_FLEET=1: `make test` runs
// them after the suite, beside the soak. Ten demo processes decoding beside the suite starved
// its time-bounded network tests (a hundred connections took 20 s to open).
extension DemoTests {
    @Suite("Demo fleet over a shared Redis", .serialized,
           .enabled(if: ProcessInfo.processInfo.environment["OSPREY_FLEET"] == "1", "make test runs the fleet after the suite (OSPREY_FLEET=1)"))
    struct Fleet {
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

        /// Loads every image's thumbnail through `demo`; returns the tier each reported.
        static func loadAll(through demo: ServerProcess, origin: TestHTTPServer) throws -> [String] {
            try names.map { name in
                let url = origin.url("/origin/\(name)").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try demo.get("/thumb?url=\(url)&w=96&h=96&mode=fill")
                guard response.status == 200, response.body.starts(with: [0xFF, 0xD8]) else { return "failed \(response.status)" }
                let line = response.headers.split(separator: "\r\n").first { $0.hasPrefix("x-osprey-tier:") }
                return line.map { String($0.dropFirst("x-osprey-tier:".count)).trimmingCharacters(in: .whitespaces) } ?? "none"
            }
        }

        static func instance(upstream origin: TestHTTPServer, redis: RedisServer?) throws -> ServerProcess {
            try ServerProcess.start(arguments: ["--upstream", origin.url("").absoluteString] + (redis.map { ["--shared-cache", $0.url] } ?? []))
        }

        @Test func threeInstancesDownloadEachOriginalOnceWithTheSharedTierAndThreeTimesWithout() throws {
            let redis = try RedisServer()
            let origin = try Self.origin()
            var tiers: [[String]] = []
            for _ in 0..<3 {
                let demo = try Self.instance(upstream: origin, redis: redis)
                tiers.append(try Self.loadAll(through: demo, origin: origin))
                #expect(demo.stop() == 0)
            }
            #expect(Fleet.downloads(from: origin) == 50, "the fleet downloaded each original once")
            #expect(tiers[0] == Array(repeating: "network", count: 50))
            #expect(tiers[1] == Array(repeating: "shared", count: 50), "instance B found every original in Redis")
            #expect(tiers[2] == Array(repeating: "shared", count: 50), "instance C too")

            let alone = try Self.origin()
            for _ in 0..<3 {
                let demo = try Self.instance(upstream: alone, redis: nil)
                #expect(try Self.loadAll(through: demo, origin: alone) == Array(repeating: "network", count: 50))
                #expect(demo.stop() == 0)
            }
            #expect(Fleet.downloads(from: alone) == 150, "without the shared tier every instance downloads every original")
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
            #expect(Fleet.downloads(from: origin) == 100)

            try redis.restart()  // empty: the restarted Redis kept nothing
            Thread.sleep(forTimeInterval: 1.5)  // past the retry interval of 1 s
            let c = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: c, origin: origin) == Array(repeating: "network", count: 50))
            let d = try Self.instance(upstream: origin, redis: redis)
            #expect(try Self.loadAll(through: d, origin: origin) == Array(repeating: "shared", count: 50),
                    "C refilled the restarted Redis and D read from it")
            #expect(Fleet.downloads(from: origin) == 150)
            // B noticed the outage once in its log, not once per request.
            let log = (try? String(contentsOf: b.log, encoding: .utf8)) ?? ""
            #expect(log.components(separatedBy: "shared cache unavailable").count - 1 == 1, "\(log.suffix(1000))")
            for demo in [a, b, c, d] { #expect(demo.stop() == 0) }
        }
    }
}
