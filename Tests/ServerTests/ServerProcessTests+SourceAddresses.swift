import Foundation
import OspreyTesting
import Testing

/// `osprey-server` against a loopback service standing in for a company's
/// internal network: the service counts what reaches it through each route, refused by
/// default and allowed by the matching flag or an `--allow-origin` naming it. In the server's
/// serialized suite: each test blocks a thread of the shared pool while the server runs.
extension ServerProcessTests {
    /// The internal service, with one image.
    static func internalService() throws -> TestHTTPServer {
        let service = try TestHTTPServer()
        service.serve("secret.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        return service
    }

    static func spellings(port: Int) -> [String] { LoopbackSpellings.urls(port: port, path: "/files/secret.jpg") }

    @Test func numericSpellingsAndIPv6FormsOfLoopbackReachNothingUnlessLoopbackIsAllowed() throws {
        let service = try Self.internalService()
        defer { service.stop() }
        let paths = try ServerProcessTests.paths(Self.spellings(port: service.port).map {
            ServerProcessTests.Spec(url: $0, key: nil, salt: nil, width: 32, height: 32)
        })
        let metricsPort = try LoopbackPort.free()
        let closed = try ServerProcess.start(arguments: ["--allow-unsigned", "--metrics-bind", "127.0.0.1:\(metricsPort)"],
                                             executable: "osprey-server", readyPath: "/health")
        for path in paths {
            let answer = try closed.get(path)
            #expect(answer.status == 404 && String(decoding: answer.body, as: UTF8.self) == "Invalid source URL\n", "\(path)")
            #expect(answer.headers.contains("x-request-id: "), "\(path)")
        }
        let metrics = try ServerProcessTests.metrics(port: metricsPort)
        #expect(metrics.contains("source_refusals_total{reason=\"loopback\"} \(paths.count)"), "\(metrics)")
        #expect(closed.stop() == 0)
        #expect(service.connections.opened == 0)
        let logged = try String(contentsOf: closed.log, encoding: .utf8)
        #expect(logged.contains("class=refused") && logged.contains("the source is on a loopback address") && logged.contains("0x7f000001"), "\(logged)")

        let open = try ServerProcess.start(arguments: ["--allow-unsigned", "--allow-loopback-sources"], executable: "osprey-server",
                                         readyPath: "/health")
        defer { #expect(open.stop() == 0) }
        for path in paths { #expect(try open.get(path).status == 200, "\(path)") }
        #expect(service.hits("/files/secret.jpg") >= 1, "the first fetch is cached for the other spellings")
    }

    @Test func anAllowedOriginsRedirectToAnInternalAddressOrToAFileIsRefused() throws {
        let service = try Self.internalService(), origin = try TestHTTPServer()
        defer { service.stop(); origin.stop() }
        let internalURL = "http://127.0.0.1:\(service.port)/files/secret.jpg"
        let routes = [internalURL, "http://127.1:\(service.port)/files/secret.jpg", "file:///etc/passwd"]
        let specs = routes.map { ServerProcessTests.Spec(url: origin.url(TestHTTPServer.to($0)).absoluteString, width: 32, height: 32) }
        let paths = try ServerProcessTests.paths(specs)
        let server = try ServerProcessTests.server(origin, ["--development-errors"])
        for (path, reason) in zip(paths, ["not under an allowed origin", "not under an allowed origin", "scheme is not one this server fetches"]) {
            let answer = try server.get(path)
            #expect(answer.status == 404 && String(decoding: answer.body, as: UTF8.self).contains(reason), "\(path)")
        }
        #expect(server.stop() == 0)
        #expect(service.connections.opened == 0)
        #expect(origin.requests.count == routes.count, "each redirect was asked for once: no retries")
        // Named by --allow-origin, the internal service is a source like any other.
        let allowing = try ServerProcessTests.server(origin, ["--allowed-source", "http://127.0.0.1:\(service.port)/"])
        defer { #expect(allowing.stop() == 0) }
        #expect(try allowing.get(paths[0]).status == 200)
        #expect(service.hits("/files/secret.jpg") == 1)
    }
}
