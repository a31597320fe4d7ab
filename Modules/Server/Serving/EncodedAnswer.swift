import Foundation
import OspreyDomain

/// An image as it is sent: its encoded bytes, their format and validator, and until when the
/// source they were made from is fresh.
struct EncodedAnswer: Sendable {
    let bytes: Data
    let format: ImageFormat
    let tag: EntityTag
    /// After this the answer is made again, so that the source is revalidated first.
    let freshUntil: Date?
    /// The source's `Last-Modified`, as sent.
    let lastModified: String?

    func isStale(at now: Date) -> Bool { freshUntil.map { now >= $0 } ?? false }

    /// As the disk cache keeps it: the tag, as its header writes it, in the metadata's `etag`.
    var cached: CachedData {
        CachedData(data: bytes, metadata: CachedDataMetadata(format: format, etag: tag.header, lastModified: lastModified,
                                                              freshUntil: freshUntil))
    }

    init(bytes: Data, format: ImageFormat, tag: EntityTag, freshUntil: Date?, lastModified: String? = nil) {
        self.bytes = bytes
        self.format = format
        self.tag = tag
        self.freshUntil = freshUntil
        self.lastModified = lastModified
    }

    /// An answer read back from the disk cache; `nil` for an entry this type did not write.
    init?(_ cached: CachedData) {
        guard let format = cached.metadata.format, let tag = cached.metadata.etag.flatMap(EntityTag.init(header:)) else { return nil }
        self.init(bytes: cached.data, format: format, tag: tag, freshUntil: cached.metadata.freshUntil,
                  lastModified: cached.metadata.lastModified)
    }
}
