import Foundation
import OspreyDomain

/// A ``DataLoading`` that serves canned responses from memory and counts what it is asked.
///
/// Register bodies with ``serve(_:at:status:headers:)``; unknown URLs answer 404, and
/// schemes other than http and https are refused, as the real loader does. Held loads
/// (all of them, or chosen resources) wait until ``gate`` opens, honouring cancellation.
public final class MockDataLoader: DataLoading {
    /// A canned answer.
    public struct Resource: Sendable {
        /// The body.
        public var data: Data
        /// The HTTP status.
        public var status: Int
        /// Response headers.
        public var headers: [String: String]
        /// Parsed freshness.
        public var freshness: HTTPFreshness
        /// `true` when loads of this resource wait at the gate even if others do not.
        public var held: Bool
    }

    private struct State {
        var resources: [URL: Resource] = [:]
        var requests: [DataRequest] = []
        var cancellations = 0
        var completions = 0
    }

    private let state = Locked(State())
    /// Held loads wait here until the test opens it.
    public let gate: Gate
    private let holdsAll: Bool
    /// How many progress steps each body is delivered in.
    public let chunks: Int

    /// Creates a loader; with `holding: true` every load waits for ``gate`` to open.
    public init(holding: Bool = false, chunks: Int = 4) {
        gate = Gate()
        holdsAll = holding
        self.chunks = max(1, chunks)
    }

    /// Serves `data` at `url`; with `held: true` its loads wait for ``gate`` to open.
    public func serve(
        _ data: Data, at url: URL, status: Int = 200, headers: [String: String] = [:],
        freshness: HTTPFreshness = HTTPFreshness(), held: Bool = false
    ) {
        state.withLock { $0.resources[url] = Resource(data: data, status: status, headers: headers, freshness: freshness, held: held) }
    }

    /// Every request received, in order.
    public var requests: [DataRequest] { state.withLock { $0.requests } }
    /// How many loads were started.
    public var loadCount: Int { state.withLock { $0.requests.count } }
    /// How many loads ended by cancellation.
    public var cancellationCount: Int { state.withLock { $0.cancellations } }
    /// How many loads answered (with a body or an HTTP error).
    public var completionCount: Int { state.withLock { $0.completions } }

    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let resource = state.withLock { state in
            state.requests.append(request)
            return state.resources[request.url]
        }
        let urlString = request.url.absoluteString
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DataLoadingError.unsupportedScheme(request.url.scheme ?? "", url: urlString)
        }
        do {
            if holdsAll || resource?.held == true { try await gate.wait() }
            try Task.checkCancellation()
        } catch {
            state.withLock { $0.cancellations += 1 }
            throw CancellationError()
        }
        state.withLock { $0.completions += 1 }
        guard let resource, (200..<300).contains(resource.status) else {
            throw DataLoadingError.httpStatus(resource?.status ?? 404, url: urlString)
        }
        // A conditional request whose validators match is answered 304 without a body.
        if let validators = request.validators, Self.matches(validators, resource.headers) {
            let metadata = ResponseMetadata(url: request.url, statusCode: 304, headers: resource.headers, freshness: resource.freshness)
            return DataResponse(data: Data(), metadata: metadata)
        }
        let total = Int64(resource.data.count)
        for step in 1...chunks {
            progress(TransferProgress(completed: total * Int64(step) / Int64(chunks), expected: total))
        }
        let metadata = ResponseMetadata(url: request.url, statusCode: resource.status, headers: resource.headers, freshness: resource.freshness)
        return DataResponse(data: resource.data, metadata: metadata)
    }

    private static func matches(_ validators: HTTPValidators, _ headers: [String: String]) -> Bool {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        if let etag = validators.etag { return etag == lowered["etag"] }
        return validators.lastModified != nil && validators.lastModified == lowered["last-modified"]
    }
}
