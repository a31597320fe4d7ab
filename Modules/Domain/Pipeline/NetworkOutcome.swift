import Foundation

/// What the network stage settled for one image load.
enum NetworkOutcome: Sendable {
    /// New bytes; `noStore` when the server forbade keeping them.
    case downloaded(Data, CachedDataMetadata, noStore: Bool)
    /// The origin confirmed the stale entry; its metadata carries the new freshness.
    case notModified(DiskEntry)
    /// The origin could not answer, so the stale entry is served (stale-if-error).
    case staleAfterError(DiskEntry)
}
