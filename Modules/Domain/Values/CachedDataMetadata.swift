import Foundation

/// What a data cache records beside the bytes it stores.
///
/// This is the entry's HTTP information; the cache's own bookkeeping (created, last access,
/// its own expiry) is kept by the cache and decided by its ``CachePolicy``.
public struct CachedDataMetadata: Hashable, Sendable {
    /// The sniffed format of the bytes, if known.
    public var format: ImageFormat?
    /// The image's size in pixels, if known.
    public var pixelSize: PixelSize?
    /// The server's `ETag`.
    public var etag: String?
    /// The server's `Last-Modified`.
    public var lastModified: String?
    /// Until when the bytes may be used without revalidation; `nil` means no limit was given.
    public var freshUntil: Date?
    /// The URL the bytes came from.
    public var sourceURL: String?

    /// Creates metadata.
    public init(
        format: ImageFormat? = nil, pixelSize: PixelSize? = nil, etag: String? = nil,
        lastModified: String? = nil, freshUntil: Date? = nil, sourceURL: String? = nil
    ) {
        self.format = format
        self.pixelSize = pixelSize
        self.etag = etag
        self.lastModified = lastModified
        self.freshUntil = freshUntil
        self.sourceURL = sourceURL
    }

    /// The validators for a conditional GET.
    public var validators: HTTPValidators? { HTTPValidators(etag: etag, lastModified: lastModified) }

    /// `true` when `now` is past ``freshUntil``.
    public func isStale(at now: Date) -> Bool { freshUntil.map { now >= $0 } ?? false }
}
