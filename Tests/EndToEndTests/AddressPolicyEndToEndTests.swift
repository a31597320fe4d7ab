import Foundation
@testable import Osprey
import OspreyTesting
import Testing

/// An app that shows images from URLs its users give, through `ImagePipeline` with the
/// loader's address policy set: an internal service on loopback receives nothing.
@Suite("ImagePipeline with an address policy")
struct AddressPolicyEndToEndTests {
    static func pipeline(_ policy: AddressPolicy, service: TestHTTPServer, origin: TestHTTPServer) throws -> ImagePipeline {
        var configuration = OspreyConfiguration(cacheDirectory: nil)
        configuration.network.addressPolicy = policy
        configuration.network.maxRetries = 0
        configuration.network.resolve = ["internal.test:\(service.port):127.0.0.1", "origin.test:\(origin.port):127.0.0.1"]
        return try configuration.makePipeline()
    }

    @Test func userGivenURLsReachNothingInternalUnlessThePolicyOpensIt() async throws {
        let service = try TestHTTPServer(), origin = try TestHTTPServer()
        defer { service.stop(); origin.stop() }
        service.serve("photo.jpg", EndToEnd.photo, contentType: "image/jpeg")
        let file = "http://%@:\(service.port)/files/photo.jpg"
        let routes = [String(format: file, "internal.test"), String(format: file, "127.1"), String(format: file, "[::ffff:7f00:1]"),
                      "http://origin.test:\(origin.port)" + TestHTTPServer.to(String(format: file, "internal.test"))]
        let closed = try Self.pipeline(AddressPolicy(trustedHosts: ["origin.test"]), service: service, origin: origin)
        for route in routes {
            let request = ImageRequest(url: URL(string: route)!, targetSize: PixelSize(width: 64, height: 64))
            await #expect(throws: ImagePipeline.Error.dataLoadingFailed(.refused(.loopbackAddress, url: route)), "\(route)") {
                try await closed.image(for: request)
            }
        }
        #expect(service.connections.opened == 0)
        let open = try Self.pipeline(AddressPolicy(allowing: [.loopback]), service: service, origin: origin)
        for route in routes {
            let response = try await open.image(for: ImageRequest(url: URL(string: route)!, targetSize: PixelSize(width: 64, height: 64)))
            #expect(response.tier == .network && response.image.size.width == 64, "\(route)")
        }
        #expect(service.hits("/files/photo.jpg") == routes.count)
    }
}
