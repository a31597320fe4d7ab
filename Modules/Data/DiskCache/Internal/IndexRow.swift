import OspreyDomain

/// One row of the index, read whole: the entry as listed, its file, its metadata.
struct IndexRow {
    let entry: DiskCache.Entry
    let file: String
    let metadata: CachedDataMetadata
}
