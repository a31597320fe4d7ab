import Foundation

/// What the disk cache held for a request.
enum DiskLookup: Sendable {
    /// An entry that may be used as it is.
    case fresh(DiskEntry)
    /// An entry past its freshness, to revalidate (and to serve if the origin cannot answer).
    case stale(DiskEntry)
    case miss
}
