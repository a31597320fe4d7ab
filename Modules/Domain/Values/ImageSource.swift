import Foundation

/// Where an image's encoded bytes come from.
public enum ImageSource: Hashable, Sendable, CustomStringConvertible {
    /// A remote resource fetched by a ``DataLoading``.
    case url(URL)
    /// A file on the local file system, decoded in place and never copied to the disk cache.
    case file(path: String)

    /// The string that identifies the source in cache keys.
    public var cacheIdentifier: String { cacheIdentifier(normalizing: URLNormalization()) }

    /// The string that identifies the source in cache keys, its URL normalised by `normalization`.
    public func cacheIdentifier(normalizing normalization: URLNormalization) -> String {
        switch self {
        case .url(let url): normalization.cacheIdentifier(for: url)
        case .file(let path): "file://" + path
        }
    }

    public var description: String { cacheIdentifier }
}
