/// Why a ``DataCaching`` could not store or read an entry.
public enum DataCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The entry alone is larger than the cache may hold.
    case entryTooLarge(size: Int, limit: Int)
    /// The storage failed (disk full, permission …); `reason` is the system's message.
    case storageFailed(reason: String)
    /// The cache's index is damaged; `reason` says how.
    case corruptIndex(reason: String)

    public var description: String {
        switch self {
        case let .entryTooLarge(size, limit): "entry of \(size) bytes is larger than the cache's limit of \(limit) bytes"
        case let .storageFailed(reason): "cache storage failed: \(reason)"
        case let .corruptIndex(reason): "cache index is damaged: \(reason)"
        }
    }
}
