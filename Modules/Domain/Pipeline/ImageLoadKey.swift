import Foundation

/// Requests coalesce when they want the same image under the same cache options.
struct ImageLoadKey: Hashable, Sendable {
    let key: CacheKey
    let options: ImageRequest.Options.RawValue
    let storage: DiskStoragePolicy
}
