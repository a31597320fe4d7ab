import Foundation

/// The validators a server gave for a response, sent back to ask whether it changed.
public struct HTTPValidators: Hashable, Sendable {
    /// The `ETag` header, sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` header, sent back as `If-Modified-Since`.
    public var lastModified: String?

    /// Creates validators; `nil` when both are missing.
    public init?(etag: String?, lastModified: String?) {
        guard etag != nil || lastModified != nil else { return nil }
        self.etag = etag
        self.lastModified = lastModified
    }
}
