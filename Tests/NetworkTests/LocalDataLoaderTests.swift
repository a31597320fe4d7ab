import Foundation
import OspreyDomain
import OspreyNetwork
import OspreyTesting
import Testing

/// `file:` and `data:` URLs, and the loader that chooses by scheme.
@Suite("Local and inline loaders")
struct LocalDataLoaderTests {
    @Test func filesAreReadWithTheirTimeAndNeverKept() async throws {
        let file = try Corpus.file("photos/jolla.jpg")
        let response = try await FileDataLoader().loadData(for: DataRequest(url: file))
        #expect(response.data == (try Data(contentsOf: file)))
        #expect(response.metadata.freshness.noStore && response.metadata.headers["last-modified"] != nil)
        let missing = URL(fileURLWithPath: "/nonexistent/osprey.jpg")
        await #expect(throws: DataLoadingError.fileNotFound(url: missing.absoluteString)) {
            try await FileDataLoader().loadData(for: DataRequest(url: missing))
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        await #expect(throws: DataLoadingError.fileNotFound(url: folder.absoluteString)) {
            try await FileDataLoader().loadData(for: DataRequest(url: folder))
        }
    }

    @Test func dataURLsDecodeBase64AndPercentEncoding() async throws {
        func load(_ text: String) async throws -> DataResponse {
            try await DataURLLoader().loadData(for: DataRequest(url: try #require(URL(string: text))))
        }
        let png = try await load("data:image/png;base64,iVBORw0KGgo=")
        #expect(Array(png.data) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] && png.metadata.headers["content-type"] == "image/png")
        #expect(try await load("data:,a%20b%2C").data == Data("a b,".utf8))
        #expect(try await load("data:text/plain;charset=utf-8;base64,aGk").data == Data("hi".utf8), "padding may be left out")
        await #expect(throws: DataLoadingError.malformedDataURL(reason: "the payload is not base64")) { try await load("data:;base64,@@@") }
        await #expect(throws: DataLoadingError.malformedDataURL(reason: "no comma before the payload")) { try await load("data:image/png") }
    }

    @Test func eachSchemeGoesToItsLoader() async throws {
        struct Echo: DataLoading {
            func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
                DataResponse(data: Data(request.url.absoluteString.utf8), metadata: ResponseMetadata(url: request.url, statusCode: 200))
            }
        }
        let loader = SchemeDataLoader.standard(network: Echo()).adding(Echo(), for: "Asset")
        #expect(try await loader.loadData(for: DataRequest(url: URL(string: "asset://logo")!)).data == Data("asset://logo".utf8))
        #expect(try await loader.loadData(for: DataRequest(url: URL(string: "https://a.example/x")!)).data == Data("https://a.example/x".utf8))
        #expect(try await loader.loadData(for: DataRequest(url: URL(string: "data:,x")!)).data == Data("x".utf8))
        await #expect(throws: DataLoadingError.unsupportedScheme("ftp", url: "ftp://a.example/x")) {
            try await loader.loadData(for: DataRequest(url: URL(string: "ftp://a.example/x")!))
        }
    }
}
