import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// The loader's address policy against a loopback service standing in for an internal
/// network: every route to it is refused where the socket connects, and the service
/// counts that nothing reached it.
@Suite("CurlDataLoader's address policy")
struct AddressPolicyLoaderTests {
    /// The internal service, an origin that redirects, and a loader for one test.
    struct Network {
        let service: TestHTTPServer
        let origin: TestHTTPServer
        let loader: CurlDataLoader

        /// `internal.test` and `origin.test` resolve to 127.0.0.1 through `CURLOPT_RESOLVE`, so
        /// only the check on connecting can tell what they are.
        init(policy: AddressPolicy?, sourceFilter: (@Sendable (URL) -> SourceRefusal?)? = nil) throws {
            service = try TestHTTPServer()
            service.serve("secret.jpg", Data("internal".utf8))
            origin = try TestHTTPServer()
            var configuration = CurlDataLoader.Configuration(maxRetries: 0)
            configuration.addressPolicy = policy
            configuration.sourceFilter = sourceFilter
            configuration.resolve = ["internal.test:\(service.port):127.0.0.1", "origin.test:\(origin.port):127.0.0.1"]
            loader = CurlDataLoader(configuration: configuration)
        }

        /// Each route to the internal service's file.
        var routes: [(name: String, url: URL)] {
            let port = service.port, file = "/files/secret.jpg"
            return [
                ("127.1", URL(string: "http://127.1:\(port)\(file)")!),
                ("hexadecimal", URL(string: "http://0x7f000001:\(port)\(file)")!),
                ("decimal", URL(string: "http://2130706433:\(port)\(file)")!),
                ("octal", URL(string: "http://0177.0.0.1:\(port)\(file)")!),
                ("IPv4-mapped IPv6", URL(string: "http://[::ffff:127.0.0.1]:\(port)\(file)")!),
                ("a name that resolves to it", URL(string: "http://internal.test:\(port)\(file)")!),
                ("a redirect to the address", redirect(to: "http://127.0.0.1:\(port)\(file)")),
                ("a redirect to a name", redirect(to: "http://internal.test:\(port)\(file)")),
            ]
        }

        func redirect(to target: String) -> URL {
            URL(string: "http://origin.test:\(origin.port)\(TestHTTPServer.to(target))")!
        }

        func stop() {
            service.stop()
            origin.stop()
        }
    }

    static func refusal(_ loader: CurlDataLoader, _ url: URL) async -> SourceRefusal? {
        do {
            _ = try await loader.loadData(for: DataRequest(url: url))
            return nil
        } catch DataLoadingError.refused(let reason, _) {
            return reason
        } catch {
            Issue.record("\(url): \(error)")
            return nil
        }
    }

    @Test func everyRouteToAnInternalAddressIsRefusedAndNothingArrives() async throws {
        let network = try Network(policy: AddressPolicy(trustedHosts: ["origin.test"]))
        defer { network.stop() }
        for route in network.routes {
            #expect(await Self.refusal(network.loader, route.url) == .loopbackAddress, "\(route.name)")
        }
        #expect(network.service.requests.isEmpty, "\(network.service.requests.map(\.path))")
        #expect(network.service.connections.opened == 0, "refused before the socket connects")
        #expect(network.origin.hits(TestHTTPServer.to("http://127.0.0.1:\(network.service.port)/files/secret.jpg")) == 1)
    }

    @Test func eachRouteIsAllowedWhenItsCategoryIsOpened() async throws {
        let network = try Network(policy: AddressPolicy(allowing: [.loopback]))
        defer { network.stop() }
        for route in network.routes {
            let response = try await network.loader.loadData(for: DataRequest(url: route.url))
            #expect(response.data == Data("internal".utf8), "\(route.name)")
        }
        #expect(network.service.hits("/files/secret.jpg") == network.routes.count)
    }

    @Test func aTrustedHostIsConnectedWhateverItsAddressAndOnlyIt() async throws {
        let network = try Network(policy: AddressPolicy(trustedHosts: ["internal.test"]))
        defer { network.stop() }
        let port = network.service.port
        let named = try await network.loader.loadData(for: DataRequest(url: URL(string: "http://internal.test:\(port)/files/secret.jpg")!))
        #expect(named.data == Data("internal".utf8))
        #expect(await Self.refusal(network.loader, URL(string: "http://127.0.0.1:\(port)/files/secret.jpg")!) == .loopbackAddress)
        #expect(network.service.hits("/files/secret.jpg") == 1)
    }

    @Test func aRedirectOutsideTheFilterOrToAnotherSchemeIsNotFollowed() async throws {
        let network = try Network(policy: AddressPolicy(trustedHosts: ["origin.test", "internal.test"]), sourceFilter: { url in
            url.host == "origin.test" ? nil : .notAllowed
        })
        defer { network.stop() }
        let port = network.service.port
        #expect(await Self.refusal(network.loader, network.redirect(to: "http://internal.test:\(port)/files/secret.jpg")) == .notAllowed)
        #expect(await Self.refusal(network.loader, network.redirect(to: "file:///etc/passwd")) == .scheme)
        #expect(await Self.refusal(network.loader, network.redirect(to: "gopher://internal.test:\(port)/")) == .scheme)
        #expect(network.service.connections.opened == 0)
        // Within the filter, a redirect is followed as before.
        network.origin.serve("ok.jpg", Data("origin".utf8))
        let followed = try await network.loader.loadData(for: DataRequest(url: network.redirect(to: "/files/ok.jpg")))
        #expect(followed.data == Data("origin".utf8))
    }

    @Test func withoutAPolicyTheLoaderConnectsAnywhereAsBefore() async throws {
        let network = try Network(policy: nil)
        defer { network.stop() }
        for route in network.routes {
            #expect(try await network.loader.loadData(for: DataRequest(url: route.url)).data == Data("internal".utf8), "\(route.name)")
        }
        #expect(await Self.refusal(network.loader, network.redirect(to: "file:///etc/passwd")) == .scheme, "schemes hold always")
    }
}
