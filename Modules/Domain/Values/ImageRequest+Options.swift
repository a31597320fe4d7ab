extension ImageRequest {
    /// Which caches a request reads and writes, and whether it may load from its source.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Skip the memory cache when reading.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
        /// Do not store the result in the memory cache.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
        /// Skip the disk cache when reading.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 2)
        /// Do not store downloaded bytes in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 3)
        /// Answer from the caches only; a miss is ``ImagePipeline/Error/notCached(_:)``.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 4)

        /// Load from the source even when a cache holds the image; the result refreshes them.
        public static let reloadIgnoringCachedData: Options = [.disableMemoryCacheReads, .disableDiskCacheReads]
        /// Alias of ``returnCacheDataDontLoad``.
        public static let cacheOnly: Options = .returnCacheDataDontLoad
    }

    /// How urgently an image is wanted; maps onto task priority.
    public enum Priority: Int, Comparable, Hashable, Sendable, CaseIterable {
        case veryLow, low, normal, high, veryHigh

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The task priority loads of this priority run at.
        public var taskPriority: TaskPriority {
            switch self {
            case .veryLow: .background
            case .low: .low
            case .normal: .medium
            case .high: .high
            case .veryHigh: .userInitiated
            }
        }
    }
}
