import Foundation
import OspreyDomain

/// ``CachedDataMetadata`` as the JSON a shared cache stores beside the bytes.
struct StoredMetadata: Codable {
    var format: String?
    var width: Int?
    var height: Int?
    var etag: String?
    var lastModified: String?
    var freshUntil: Double?
    var sourceURL: String?

    init(_ metadata: CachedDataMetadata) {
        format = metadata.format?.rawValue
        width = metadata.pixelSize?.width
        height = metadata.pixelSize?.height
        etag = metadata.etag
        lastModified = metadata.lastModified
        freshUntil = metadata.freshUntil?.timeIntervalSinceReferenceDate
        sourceURL = metadata.sourceURL
    }

    var metadata: CachedDataMetadata {
        CachedDataMetadata(
            format: format.map(ImageFormat.init(rawValue:)),
            pixelSize: width.flatMap { width in height.map { PixelSize(width: width, height: $0) } },
            etag: etag, lastModified: lastModified, freshUntil: freshUntil.map(Date.init(timeIntervalSinceReferenceDate:)),
            sourceURL: sourceURL
        )
    }

    static func encode(_ metadata: CachedDataMetadata) -> Data {
        (try? JSONEncoder().encode(StoredMetadata(metadata))) ?? Data("{}".utf8)
    }

    static func decode(_ data: Data) -> CachedDataMetadata? {
        (try? JSONDecoder().decode(StoredMetadata.self, from: data))?.metadata
    }
}
