import Foundation
import OspreyTesting
import Testing

/// The demo against a loopback service standing in for an internal network. In the demo's
/// serialized suite: the test blocks a thread of the shared pool.
extension DemoTests {
    @Test func theDemoFollowsRedirectsOnlyWithinItsOrigins() throws {
        let service = try TestHTTPServer(), origin = try TestHTTPServer()
        service.serve("secret.jpg", Data("internal".utf8))
        defer { service.stop(); origin.stop() }
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        let demo = try ServerProcess.start(arguments: ["--allow-origin", origin.url("/").absoluteString])
        defer { #expect(demo.stop() == 0) }
        func thumb(_ url: String) throws -> Int { try demo.get("/thumb?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&w=32&h=32").status }
        #expect(try thumb(origin.url(TestHTTPServer.to("http://127.0.0.1:\(service.port)/files/secret.jpg")).absoluteString) == 403)
        #expect(try thumb(origin.url(TestHTTPServer.to("file:///etc/passwd")).absoluteString) == 403)
        for url in LoopbackSpellings.urls(port: service.port, path: "/files/secret.jpg") { #expect(try thumb(url) == 403, "\(url)") }
        #expect(service.connections.opened == 0)
        #expect(try thumb(origin.url(TestHTTPServer.to("/files/photo.jpg")).absoluteString) == 200, "within the origin")
    }
}
