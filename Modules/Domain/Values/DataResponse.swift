import Foundation

/// Bytes fetched by a ``DataLoading`` with what the server said about them.
public struct DataResponse: Sendable {
    /// The body; empty for a `304 Not Modified`.
    public var data: Data
    /// Status, headers and caching information.
    public var metadata: ResponseMetadata

    /// Creates a response.
    public init(data: Data, metadata: ResponseMetadata) {
        self.data = data
        self.metadata = metadata
    }
}
