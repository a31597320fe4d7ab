import Foundation
import Logging

/// A local data cache in front of a shared one: the disk cache of this machine before a
/// cache every machine of a fleet shares (`RedisDataCache` in `OspreyRedisCache`).
///
/// - Reads try the local cache, then the shared one; a shared hit is copied to the local
///   cache and comes back with ``CachedData/tier`` ``ImageResponse/Tier/shared``.
/// - Writes, metadata updates and removals go to both.
/// - The shared tier is optional by nature: when it fails (down, slow, refusing), a read is a
///   miss and a write is skipped, so the pipeline goes on to the network. Only the local
///   cache's errors reach the caller. (The shared cache itself logs its outages, once each.)
/// - ``usage()`` is the local cache's: what this machine holds.
public final class TieredDataCache: DataCaching {
    /// The cache of this machine.
    public let local: any DataCaching
    /// The cache the fleet shares.
    public let shared: any DataCaching
    private let logger: Logger

    /// Puts `local` in front of `shared`.
    public init(local: any DataCaching, shared: any DataCaching, logger: Logger = Logger(label: "osprey.tiered-cache")) {
        self.local = local
        self.shared = shared
        self.logger = logger
    }

    public func cachedData(for key: CacheKey) async throws -> CachedData? {
        if let found = try await local.cachedData(for: key) { return found }
        guard var found = await sharedOrNil({ try await self.shared.cachedData(for: key) }) ?? nil else { return nil }
        do {
            try await local.store(found, for: key)
        } catch {
            logger.debug("could not copy a shared entry to the local cache", metadata: ["key": "\(key)", "error": "\(error)"])
        }
        found.tier = .shared
        return found
    }

    public func store(_ entry: CachedData, for key: CacheKey) async throws {
        let plain = CachedData(data: entry.data, metadata: entry.metadata)
        await sharedOrNil { try await self.shared.store(plain, for: key) }
        try await local.store(plain, for: key)
    }

    public func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws {
        await sharedOrNil { try await self.shared.updateMetadata(metadata, for: key) }
        try await local.updateMetadata(metadata, for: key)
    }

    public func removeData(for key: CacheKey) async throws {
        await sharedOrNil { try await self.shared.removeData(for: key) }
        try await local.removeData(for: key)
    }

    public func removeData(forSource source: String) async throws {
        await sharedOrNil { try await self.shared.removeData(forSource: source) }
        try await local.removeData(forSource: source)
    }

    public func removeAll() async throws {
        await sharedOrNil { try await self.shared.removeAll() }
        try await local.removeAll()
    }

    public func usage() async throws -> CacheUsage {
        try await local.usage()
    }

    /// Runs an operation on the shared tier; a failure is logged at debug level and gives `nil`.
    @discardableResult
    private func sharedOrNil<T: Sendable>(_ operation: @Sendable () async throws -> T) async -> T? {
        do {
            return try await operation()
        } catch {
            logger.debug("shared cache skipped", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
