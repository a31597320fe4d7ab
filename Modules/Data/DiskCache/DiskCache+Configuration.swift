import Foundation
import OspreyDomain

extension DiskCache {
    /// Where the cache lives and what it keeps.
    public struct Configuration: Sendable {
        /// The cache folder.
        public var directory: URL
        /// The most bytes of entries kept (default 256 MB).
        public var sizeLimit: Int
        /// The most entries kept (default: no limit).
        public var countLimit: Int
        /// The share of a limit the cache shrinks to when a write would pass it (default 70%).
        public var trimRatio: Double
        /// How long an entry lives after it was last read or written; `nil` for ever
        /// (default 7 days). This is the cache's own lifetime, not HTTP freshness.
        public var timeToLive: TimeInterval?
        /// More rules on top of the limits above: batch eviction, idle-session purge …
        public var additionalPolicies: [any CachePolicy]
        /// How often expired entries are swept while the cache is open.
        public var sweepInterval: TimeInterval
        /// How many last-access updates are kept in memory before one write saves them.
        public var accessBatchSize: Int
        /// Whether opening repairs the folder (drops broken rows and stray files, rebuilds a
        /// damaged index, sweeps expired entries). `false` opens it as found, for inspection:
        /// `osprey cache verify` must see damage, not mend it first.
        public var repairsAtOpen: Bool

        /// Creates a configuration.
        public init(
            directory: URL = Configuration.defaultDirectory, sizeLimit: Int = 256_000_000, countLimit: Int = .max,
            trimRatio: Double = 0.7, timeToLive: TimeInterval? = 7 * 24 * 3600, additionalPolicies: [any CachePolicy] = [],
            sweepInterval: TimeInterval = 600, accessBatchSize: Int = 1_024,
            repairsAtOpen: Bool = true
        ) {
            self.directory = directory
            self.sizeLimit = sizeLimit
            self.countLimit = countLimit
            self.trimRatio = trimRatio
            self.timeToLive = timeToLive
            self.additionalPolicies = additionalPolicies
            self.sweepInterval = sweepInterval
            self.accessBatchSize = accessBatchSize
            self.repairsAtOpen = repairsAtOpen
        }

        /// `$XDG_CACHE_HOME/osprey`, else `~/.cache/osprey`.
        public static var defaultDirectory: URL {
            let environment = ProcessInfo.processInfo.environment
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg).appendingPathComponent("osprey", isDirectory: true)
            }
            return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/osprey", isDirectory: true)
        }

        /// The policy the limits and rules above make.
        var policy: CompositeCachePolicy {
            CompositeCachePolicy(
                [LRULimitPolicy(costLimit: sizeLimit, countLimit: countLimit, trimRatio: trimRatio),
                 ExpiryPolicy(timeToLive.map { .sinceLastAccess($0) } ?? .never)] + additionalPolicies
            )
        }
    }

    /// What the cache holds, for `osprey cache stats`.
    public struct Statistics: Hashable, Sendable, Codable {
        /// Entries indexed.
        public var entries: Int
        /// Bytes of all entries.
        public var bytes: Int
        /// The size limit.
        public var limitBytes: Int
        /// The least recent access, if any entry.
        public var oldestAccess: Date?
        /// The most recent access, if any entry.
        public var newestAccess: Date?
    }

    /// One entry as the index records it, for `osprey cache list`.
    public struct Entry: Hashable, Sendable, Codable {
        /// The key.
        public var key: String
        /// Bytes.
        public var size: Int
        /// The format of the bytes, if known.
        public var format: String?
        /// When it was stored.
        public var created: Date
        /// When it was last read or written.
        public var accessed: Date
        /// When the cache will drop it, if ever.
        public var expires: Date?
        /// The URL it came from.
        public var sourceURL: String?
    }

    /// What ``verify()`` found.
    public struct Verification: Hashable, Sendable, Codable {
        /// Entries checked.
        public var entries: Int
        /// Problems found; empty when the index and the files agree.
        public var problems: [String]
        /// `true` when there is no problem.
        public var isConsistent: Bool { problems.isEmpty }
    }
}
