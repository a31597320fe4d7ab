import Foundation

/// What one shared download produced, for every image load waiting on it.
enum Download: Sendable {
    /// New bytes; `noStore` when the server forbade keeping them.
    case body(Data, CachedDataMetadata, noStore: Bool)
    /// A conditional request's `304`, with the response's freshness and validators.
    case notModified(CachedDataMetadata)
}
