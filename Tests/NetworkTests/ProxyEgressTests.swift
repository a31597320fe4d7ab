import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// Sources fetched through a proxy (`HTTP_PROXY`): under an address policy the loader looks
/// the host up itself, checks the address and asks the proxy for that address, so the proxy
/// is no way around the policy; redirects are followed the same way.
@Suite("CurlDataLoader through a proxy")
struct ProxyEgressTests {
    struct Network {
        let service = try! TestHTTPServer()
        let origin = try! TestHTTPServer()
        let proxy: ConnectProxy
        let loader: CurlDataLoader

        /// `internal.test` and `origin.test` both resolve to 127.0.0.1; only `origin.test` is trusted.
        init(noProxy: [String] = [], maxRedirects: Int = 5) throws {
            proxy = try ConnectProxy()
            service.serve("secret.jpg", Data("internal".utf8))
            origin.serve("ok.jpg", Data("origin".utf8))
            var configuration = CurlDataLoader.Configuration(maxRedirects: maxRedirects, maxRetries: 0)
            configuration.addressPolicy = AddressPolicy(trustedHosts: ["origin.test"])
            configuration.proxy = ProxySettings(httpProxy: proxy.url, httpsProxy: proxy.url, noProxy: noProxy)
            configuration.resolve = ["internal.test:\(service.port):127.0.0.1", "origin.test:\(origin.port):127.0.0.1"]
            loader = CurlDataLoader(configuration: configuration)
        }

        func origin(_ path: String) -> URL { URL(string: "http://origin.test:\(origin.port)\(path)")! }

        func stop() {
            service.stop()
            origin.stop()
            proxy.stop()
        }
    }

    @Test func theProxyIsAskedForTheCheckedAddressNotTheName() async throws {
        let network = try Network()
        defer { network.stop() }
        let response = try await network.loader.loadData(for: DataRequest(url: network.origin("/files/ok.jpg")))
        #expect(response.data == Data("origin".utf8))
        #expect(network.proxy.requests() == ["CONNECT 127.0.0.1:\(network.origin.port) HTTP/1.1"])
    }

    @Test func everyRouteToARefusedAddressStopsBeforeTheProxy() async throws {
        let network = try Network()
        defer { network.stop() }
        let port = network.service.port
        let routes = [URL(string: "http://internal.test:\(port)/files/secret.jpg")!, URL(string: "http://127.1:\(port)/files/secret.jpg")!,
                      network.origin(TestHTTPServer.to("http://internal.test:\(port)/files/secret.jpg")),
                      network.origin(TestHTTPServer.to("http://[::ffff:127.0.0.1]:\(port)/files/secret.jpg"))]
        for url in routes {
            await #expect(throws: DataLoadingError.refused(.loopbackAddress, url: "")) {
                do { _ = try await network.loader.loadData(for: DataRequest(url: url)) } catch DataLoadingError.refused(let reason, _) {
                    throw DataLoadingError.refused(reason, url: "")
                }
            }
        }
        #expect(network.service.connections.opened == 0)
        #expect(!network.proxy.requests().contains { $0.contains(":\(port) ") }, "\(network.proxy.requests())")
        // The redirecting origin was reached, through the proxy, twice.
        #expect(network.proxy.requests().filter { $0 == "CONNECT 127.0.0.1:\(network.origin.port) HTTP/1.1" }.count >= 1)
        #expect(network.origin.hits(TestHTTPServer.to("http://internal.test:\(port)/files/secret.jpg")) == 1)
    }

    @Test func redirectsAreFollowedByTheLoaderUpToTheLimit() async throws {
        let network = try Network(maxRedirects: 2)
        defer { network.stop() }
        let twice = network.origin(TestHTTPServer.to(network.origin(TestHTTPServer.to("/files/ok.jpg")).absoluteString))
        let response = try await network.loader.loadData(for: DataRequest(url: twice))
        #expect(response.data == Data("origin".utf8))
        #expect(response.metadata.url.path == "/files/ok.jpg")
        #expect(network.origin.hits("/files/ok.jpg") == 1)
        let thrice = network.origin(TestHTTPServer.to(twice.absoluteString))
        await #expect(throws: DataLoadingError.tooManyRedirects(limit: 2, url: "")) {
            do { _ = try await network.loader.loadData(for: DataRequest(url: thrice)) } catch DataLoadingError.tooManyRedirects(let limit, _) {
                throw DataLoadingError.tooManyRedirects(limit: limit, url: "")
            }
        }
    }

    @Test func aHostInNoProxyIsReachedDirectlyAndStillChecked() async throws {
        let network = try Network(noProxy: ["example.org", ".test"])
        defer { network.stop() }
        let response = try await network.loader.loadData(for: DataRequest(url: network.origin("/files/ok.jpg")))
        #expect(response.data == Data("origin".utf8))
        let internalURL = URL(string: "http://internal.test:\(network.service.port)/files/secret.jpg")!
        await #expect(throws: DataLoadingError.self) { _ = try await network.loader.loadData(for: DataRequest(url: internalURL)) }
        #expect(network.proxy.requests().isEmpty)
        #expect(network.service.connections.opened == 0)
    }

    @Test func theOperatorsServiceCallsGoThroughTheProxyUnchecked() async throws {
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        var configuration = CurlDataLoader.Configuration(maxRetries: 0)
        configuration.addressPolicy = AddressPolicy()
        configuration.proxy = ProxySettings(httpProxy: proxy.url)
        let loader = CurlDataLoader(configuration: configuration)
        // An http call goes to the proxy as an absolute URL, which this CONNECT-only proxy refuses.
        let answer = try await loader.send(ServiceCall("GET", URL(string: "http://metadata.test:8080/latest")!))
        #expect(answer.metadata.statusCode == 405)
        #expect(proxy.requests() == ["GET http://metadata.test:8080/latest HTTP/1.1"])
    }

    @Test func settingsAreReadAsGoAndCurlReadThem() throws {
        #expect(ProxySettings(environment: ["NO_PROXY": "x"]) == nil)
        let settings = try #require(ProxySettings(environment: [
            "HTTPS_PROXY": "proxy.internal:3128", "http_proxy": "http://plain:80",
            "no_proxy": " internal.example, .corp.example,10.0.0.0/8, [2001:db8::2]:8443 ,cdn.example:8080",
        ]))
        #expect(settings.httpsProxy == "http://proxy.internal:3128")
        #expect(settings.httpProxy == "http://plain:80")
        func via(_ url: String) -> String? { settings.proxy(for: URL(string: url)!) }
        #expect(via("https://images.example/a.jpg") == "http://proxy.internal:3128")
        #expect(via("http://images.example/a.jpg") == "http://plain:80")
        #expect(via("https://internal.example/a") == nil)
        #expect(via("https://a.internal.example/a") == nil)
        #expect(via("https://corp.example/a") == "http://proxy.internal:3128", ".corp.example: subdomains only")
        #expect(via("https://x.corp.example/a") == nil)
        #expect(via("http://10.2.3.4/a") == nil)
        #expect(via("http://11.2.3.4/a") == "http://plain:80")
        #expect(via("https://[2001:db8::2]:8443/a") == nil)
        #expect(via("https://[2001:db8::2]/a") != nil)
        #expect(via("http://cdn.example:8080/a") == nil)
        #expect(via("http://cdn.example/a") != nil)
        #expect(via("http://localhost:8080/a") == nil)
        #expect(via("http://127.0.0.2/a") == nil)
        #expect(ProxySettings(httpProxy: "http://p", noProxy: ["*"]).proxy(for: URL(string: "http://a.example/")!) == nil)
    }
}
