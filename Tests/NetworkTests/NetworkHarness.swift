import Foundation
import OspreyDomain
@_spi(Parsing) @testable import OspreyNetwork
import OspreyContracts
import OspreyTesting
import Testing

/// A server and a loader for one test.
struct NetworkHarness {
    let server: TestHTTPServer
    let loader: CurlDataLoader
    static let body = DataCachingContract.bytes(300_000, seed: 3)

    init(configuration: CurlDataLoader.Configuration = .init(retryBaseDelay: 0.01)) throws {
        server = try TestHTTPServer()
        server.serve("photo.jpg", Self.body, contentType: "image/jpeg", headers: ["Cache-Control": "max-age=600"])
        loader = CurlDataLoader(configuration: configuration)
    }

    func load(_ path: String, validators: HTTPValidators? = nil) async throws -> DataResponse {
        try await loader.loadData(for: DataRequest(url: server.url(path), validators: validators))
    }
}
