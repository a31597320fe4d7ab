import Foundation
import Logging
import OspreyDomain

/// Encoded bytes in Redis, shared by every process that points at the same Redis: the tier
/// a fleet of thumbnail servers puts behind their own disk caches, so that an original is
/// downloaded once for the fleet rather than once per server.
///
/// Entries are stored with their metadata (format, validators, freshness) under
/// ``Configuration/keyPrefix``, each with a TTL from ``Configuration/expiry``. The size and
/// count limits hold for the whole fleet: the bookkeeping (LRU order, sizes, sources) lives in
/// Redis too and every operation is one atomic Lua script, so evictions are least recently
/// used across all instances.
///
/// Redis is optional by design. Every wait is bounded by the connect and command timeouts,
/// and a Redis that failed is skipped for ``Configuration/retryInterval`` before being tried
/// again, so a slow or absent Redis costs a request at most one timeout. The cache itself
/// reports those failures as `DataCacheError.storageFailed(reason:)`; `TieredDataCache`
/// turns them into misses.
///
/// ```swift
/// let shared = RedisDataCache(configuration: try .init(url: "redis://10.0.0.5:6379/0"))
/// let dataCache = TieredDataCache(local: try DiskCache(), shared: shared)
/// ```
public final class RedisDataCache: DataCaching {
    /// Where Redis is and what is kept there.
    public let configuration: Configuration
    private let pool: RedisConnectionPool

    /// Creates the cache. Nothing connects until the first command.
    public init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "osprey.redis-cache")) {
        self.configuration = configuration
        pool = RedisConnectionPool(
            endpoint: .init(host: configuration.host, port: configuration.port, database: configuration.database,
                            connectTimeout: configuration.connectTimeout, commandTimeout: configuration.commandTimeout,
                            username: configuration.username, password: configuration.password, usesTLS: configuration.usesTLS,
                            certificateAuthorities: configuration.certificateAuthorities),
            size: configuration.poolSize, retryInterval: configuration.retryInterval, logger: logger
        )
    }

    /// `true` while Redis is treated as down (after a failure, for the retry interval).
    public var isUnavailable: Bool { pool.isDown }

    public func cachedData(for key: CacheKey) async throws -> CachedData? {
        let reply = try await eval(RedisScripts.get, [RedisArgument(key.stringValue), RedisArgument(configuration.ttlMilliseconds.onRead)])
        let parts = reply.elements
        guard parts.count == 2, case .string(let data) = parts[0] else { return nil }
        guard case .string(let metadata) = parts[1], let decoded = StoredMetadata.decode(metadata) else {
            throw DataCacheError.corruptIndex(reason: "the metadata of \(key) in Redis is not readable")
        }
        return CachedData(data: data, metadata: decoded)
    }

    public func store(_ entry: CachedData, for key: CacheKey) async throws {
        let limit = min(configuration.maxEntrySize, configuration.sizeLimit)
        guard entry.data.count <= limit else { throw DataCacheError.entryTooLarge(size: entry.data.count, limit: limit) }
        _ = try await eval(RedisScripts.store, [
            RedisArgument(key.stringValue), RedisArgument(key.source), RedisArgument(entry.data),
            RedisArgument(StoredMetadata.encode(entry.metadata)), RedisArgument(configuration.sizeLimit),
            RedisArgument(configuration.countLimit), RedisArgument(configuration.ttlMilliseconds.onStore),
        ])
    }

    public func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws {
        _ = try await eval(RedisScripts.updateMetadata, [RedisArgument(key.stringValue), RedisArgument(StoredMetadata.encode(metadata))])
    }

    public func removeData(for key: CacheKey) async throws {
        _ = try await eval(RedisScripts.remove, [RedisArgument(key.stringValue)])
    }

    public func removeData(forSource source: String) async throws {
        _ = try await eval(RedisScripts.removeSource, [RedisArgument(source)])
    }

    public func removeAll() async throws {
        _ = try await eval(RedisScripts.removeAll, [])
    }

    public func usage() async throws -> CacheUsage {
        let parts = try await eval(RedisScripts.usage, []).elements
        guard parts.count == 2, let cost = parts[0].integer, let count = parts[1].integer else {
            throw DataCacheError.corruptIndex(reason: "Redis answered the usage query with \(parts)")
        }
        return CacheUsage(cost: cost, count: count)
    }

    /// Runs `script` with the key prefix and `arguments` as its ARGV.
    private func eval(_ script: String, _ arguments: [RedisArgument]) async throws(DataCacheError) -> RedisReply {
        do {
            return try await pool.run(["EVAL", RedisArgument(script), "0", RedisArgument(configuration.keyPrefix)] + arguments)
        } catch {
            switch error {
            case .unreachable(let reason): throw .storageFailed(reason: "Redis at \(configuration.host):\(configuration.port): \(reason)")
            case .refused(let message): throw .storageFailed(reason: "Redis refused: \(message)")
            }
        }
    }
}
