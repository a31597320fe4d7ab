import Foundation
import OspreyDomain

/// One index row as the hit path needs it.
struct KnownEntry: Sendable {
    var file: String
    var size: Int
    var created: Double
    var accessed: Double
    var metadata: CachedDataMetadata

    init(file: String, size: Int, created: Double, accessed: Double, metadata: CachedDataMetadata) {
        self.file = file
        self.size = size
        self.created = created
        self.accessed = accessed
        self.metadata = metadata
    }

    init(row: IndexRow) {
        self.init(file: row.file, size: row.entry.size, created: row.entry.created.timeIntervalSince1970,
                  accessed: row.entry.accessed.timeIntervalSince1970, metadata: row.metadata)
    }

    func info(_ key: CacheKey) -> CacheEntryInfo {
        CacheEntryInfo(key: key, cost: size, createdAt: Date(timeIntervalSince1970: created), lastAccessAt: Date(timeIntervalSince1970: accessed))
    }
}
