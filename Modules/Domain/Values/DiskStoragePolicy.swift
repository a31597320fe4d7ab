/// What a pipeline writes to its disk cache.
///
/// The default keeps the **original bytes**: one download then serves every target size
/// and every processor. Storing the **processed image** instead costs a re-encode but makes
/// a disk hit cheap to decode, and keeps a variant whose source is large small on disk.
/// Memory always holds the processed image.
public enum DiskStoragePolicy: Hashable, Sendable {
    /// The downloaded bytes, as they are (the default).
    case originalData
    /// The processed image, encoded in `format`; the original is not kept.
    case processedImage(StorageFormat)
    /// Both the original bytes and the processed image in `format`.
    case originalAndProcessed(StorageFormat)

    /// `true` when the original bytes are written.
    public var storesOriginal: Bool {
        if case .processedImage = self { return false }
        return true
    }

    /// The format processed images are written in, or `nil` when they are not written.
    public var processedFormat: StorageFormat? {
        switch self {
        case .originalData: nil
        case .processedImage(let format), .originalAndProcessed(let format): format
        }
    }
}
