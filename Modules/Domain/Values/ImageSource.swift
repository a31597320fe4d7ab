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

    /// Where the bytes are served from: scheme, host and port of a URL (`file:` and `data:`
    /// URLs and local files count as one place each), for per-origin limits.
    var origin: String {
        guard case .url(let url) = self else { return "file" }
        let scheme = url.scheme?.lowercased() ?? ""
        guard let host = url.host?.lowercased() else { return scheme }
        return "\(scheme)://\(host):\(url.port.map(String.init) ?? "")"
    }
}
