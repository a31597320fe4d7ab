import Foundation
import HTTPTypes
@testable import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's cookie passthrough: which of a client's cookies go to its source, and that
/// answers made with them are neither shared between clients nor kept by shared caches.
@Suite("Cookie passthrough", .serialized, .timeLimit(.minutes(Sanitizer.scaled(3))))
struct CookiePassthroughTests {
    static func cookie(_ passthrough: CookiePassthrough, _ source: String, _ fields: [(String, String)], host: String? = "images.example:8080") -> String? {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return passthrough.cookie(for: URL(string: source)!, headers: headers, authority: host)
    }

    @Test func cookiesGoOnlyToTheHostTheyBelongTo() {
        let on = CookiePassthrough(enabled: true)
        let cookies = [("Cookie", "session=a; theme=dark"), ("Cookie", "lang=fi")]
        #expect(Self.cookie(on, "https://images.example/a.jpg", cookies) == "session=a; theme=dark; lang=fi", "any port, either scheme")
        #expect(Self.cookie(on, "http://IMAGES.example:9000/a.jpg", cookies) != nil)
        #expect(Self.cookie(on, "https://cdn.images.example/a.jpg", cookies) == nil, "host only: not its subdomains")
        #expect(Self.cookie(on, "https://other.example/a.jpg", cookies) == nil)
        #expect(Self.cookie(on, "https://other.example/a.jpg", cookies + [("X-Forwarded-Host", "other.example")]) != nil, "the proxy's host first")
        #expect(Self.cookie(on, "https://images.example/a.jpg", cookies, host: nil) == nil)
        #expect(Self.cookie(CookiePassthrough(), "https://images.example/a.jpg", cookies) == nil, "off by default")
        #expect(Self.cookie(on, "s3://images.example/a.jpg", cookies) == nil, "http and https sources only")
        #expect(Self.cookie(on, "https://images.example/a.jpg", [("Cookie", "; =x; ")]) == nil)
    }

    @Test func theBaseURLScopesThemByHostAndPathAndAllSendsEverything() {
        let based = CookiePassthrough(enabled: true, baseURL: URL(string: "https://shop.example/account/page")!)
        let cookies = [("Cookie", "session=a")]
        #expect(Self.cookie(based, "https://shop.example/account/photo.jpg", cookies) == "session=a")
        #expect(Self.cookie(based, "https://shop.example/account", cookies) != nil)
        #expect(Self.cookie(based, "https://shop.example/accounts/photo.jpg", cookies) == nil, "a path-match, not a prefix")
        #expect(Self.cookie(based, "https://shop.example/photo.jpg", cookies) == nil)
        #expect(Self.cookie(based, "https://images.example/account/photo.jpg", cookies) == nil, "the base URL, not the request's host")
        let all = CookiePassthrough(enabled: true, all: true)
        #expect(Self.cookie(all, "https://anywhere.example/p.jpg", cookies) == "session=a")
        #expect(CookiePassthrough.defaultPath("/account/page") == "/account")
        #expect(CookiePassthrough.defaultPath("/page") == "/")
        #expect(CookiePassthrough.defaultPath("") == "/")
    }

    @Test func eachClientsCookiesFetchTheirOwnSourceAndAnswersArePrivate() async throws {
        let origin = try TestHTTPServer()
        defer { origin.stop() }
        origin.serve("photo.jpg", try Data(contentsOf: Corpus.file("photos/jolla.jpg")), contentType: "image/jpeg")
        let server = try await ServerProcess.launch(arguments: ["--allow-unsigned", "--allow-loopback-sources"],
                                                    environment: ["IMGPROXY_COOKIE_PASSTHROUGH": "true"])
        defer { #expect(server.stop() == 0) }
        // The server and the origin are both on 127.0.0.1: the cookies belong to the source's host.
        let path = "/insecure/rs:fit:64:64/plain/\(origin.url("/files/photo.jpg").absoluteString)"
        let first = try await server.fetch(path, headers: ["Cookie: session=alice"])
        let second = try await server.fetch(path, headers: ["Cookie: session=bob"])
        let anonymous = try await server.fetch(path)
        let elsewhere = try await server.fetch(path, headers: ["Cookie: session=carol", "X-Forwarded-Host: www.example"])
        for answer in [first, second, anonymous, elsewhere] { #expect(answer.status == 200) }
        #expect(first.headers.lowercased().contains("cache-control: max-age=31536000, private"), "\(first.headers)")
        #expect(anonymous.headers.lowercased().contains(", public"))
        let sent = origin.requests.filter { $0.path == "/files/photo.jpg" }.map { $0.headers["cookie"] }
        #expect(sent == ["session=alice", "session=bob", nil], "one fetch each, none shared; carol's cookie is not the source's")
    }
}
