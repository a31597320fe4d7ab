import Foundation

/// An entry found in the disk cache for a request.
struct DiskEntry: Sendable {
    let key: CacheKey
    let cached: CachedData
    let isProcessed: Bool
}
