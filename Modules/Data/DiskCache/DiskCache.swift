import Foundation
import Logging
import OspreyDomain

/// Encoded bytes on disk: one file per entry, named by the SHA-256 of its key, indexed by
/// SQLite (WAL) with its size, format, times, validators and source.
///
/// Every limit it states is kept: a write that would pass the size or count limit first
/// evicts least recently used entries down to 70%, so the cache is never over its limit by
/// more than the entry being written. Writes go to a temporary file renamed into place, and
/// the index row is committed after the rename, so a crash never leaves a half-written entry
/// that is served. Two processes may share one folder.
///
/// ```swift
/// let cache = try DiskCache(configuration: .init(sizeLimit: 100_000_000))
/// try await cache.store(CachedData(data: bytes), for: key)
/// let entry = try await cache.cachedData(for: key)
/// ```
public final class DiskCache: DataCaching {
    /// The folder, limits and rules.
    public let configuration: Configuration
    let policy: CompositeCachePolicy
    let clock: any Clock
    let logger: Logger
    let state: Locked<State>
    let paths: Paths
    let files = FileWork()

    struct State: Sendable {
        var database: SQLiteDatabase?
        /// The index rows, mirrored in memory so a hit never waits for SQLite. Another
        /// process's changes show up when a mirrored file is gone or a key is not mirrored:
        /// then the index itself is asked.
        var known: [String: KnownEntry] = [:]
        var pendingAccess: [String: Double] = [:]
        var lastSweep: Double
    }

    /// Opens (creating) the cache in `configuration.directory`, repairing what a crash or
    /// another process left behind.
    /// - Throws: `DataCacheError/storageFailed(reason:)` when the folder cannot be used.
    public init(configuration: Configuration = Configuration(), clock: any Clock = SystemClock(),
                logger: Logger = Logger(label: "osprey.disk-cache")) throws {
        self.configuration = configuration
        self.policy = configuration.policy
        self.clock = clock
        self.logger = logger
        paths = Paths(root: configuration.directory)
        let database = try Self.openIndex(paths: paths, rebuildingIfDamaged: configuration.repairsAtOpen, logger: logger)
        state = Locked(State(database: database, lastSweep: clock.now.timeIntervalSince1970))
        if configuration.repairsAtOpen { try recoverAtOpen() }
        try withIndex { state, db in try reloadKnown(db, state: &state) }
    }

    deinit { close() }

    /// Saves batched access times and closes the index. Later calls reopen nothing: the
    /// cache is finished.
    public func close() {
        state.withLock { state in
            try? flushAccess(&state)
            state.database?.close()
            state.database = nil
        }
    }

    public func cachedData(for key: CacheKey) async throws -> CachedData? {
        let now = clock.now
        let name = key.stringValue
        var expiredFile: String?
        let hit: KnownEntry? = try withIndex { state, db in
            guard var entry = try state.known[name] ?? lookUp(name, db: db, state: &state) else { return nil }
            if policy.isExpired(entry.info(key), now: now) {
                // Another process may have used it since: ask the index before removing it.
                guard let fresh = try lookUp(name, db: db, state: &state) else { return nil }
                if policy.isExpired(fresh.info(key), now: now) {
                    try removeRows([name], db: db, state: &state)
                    expiredFile = fresh.file
                    return nil
                }
                entry = fresh
            }
            // Recorded in memory now, written to the index in batches (and before any eviction).
            entry.accessed = now.timeIntervalSince1970
            state.known[name] = entry
            state.pendingAccess[name] = entry.accessed
            if state.pendingAccess.count >= configuration.accessBatchSize { try flushAccess(&state) }
            return entry
        }
        let paths = paths
        if let expiredFile { try await files.run { FileWork.delete([expiredFile], in: paths) } }
        guard let hit else { return nil }
        // Read outside the lock but in the caller's task: a hop to the file threads would
        // double a hit's latency (Docs/BENCHMARKS.md). A missing file means another process
        // replaced or evicted the entry: ask the index once more.
        if let data = FileReader.read(paths.filePath(hit.file), size: hit.size) { return CachedData(data: data, metadata: hit.metadata) }
        let fresh = try withIndex { state, db in try lookUp(name, db: db, state: &state) }
        guard let fresh, fresh.file != hit.file, let data = FileReader.read(paths.filePath(fresh.file), size: fresh.size) else { return nil }
        return CachedData(data: data, metadata: fresh.metadata)
    }

    public func store(_ entry: CachedData, for key: CacheKey) async throws {
        let size = entry.data.count
        guard size <= configuration.sizeLimit else { throw DataCacheError.entryTooLarge(size: size, limit: configuration.sizeLimit) }
        // Written to a temporary file and renamed into place before the index knows of it: the
        // name is new (a random suffix), so no reader sees the file before its row exists, and
        // a crash before the row leaves a stray file that opening with repair removes.
        let name = paths.fileName(for: key)
        let paths = paths
        try await files.run {
            let temporary = paths.temporary()
            do {
                try FileWriter.write(entry.data, to: temporary.path)
                try FileManager.default.createDirectory(at: paths.file(name).deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: temporary, to: paths.file(name))
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw DataCacheError.storageFailed(reason: fileErrorReason(error))
            }
        }
        var staleFiles: [String] = []
        let created = clock.now.timeIntervalSince1970
        do {
            try withIndex { state, db in
                try flushAccess(&state)
                let (files, victims) = try db.transaction { () throws(SQLiteError) -> ([String], [String]) in
                    var stale: [String] = []
                    var evicted: [String] = []
                    var old: (file: String, size: Int)?
                    try db.query("SELECT file, size FROM entries WHERE key = ?", [.text(key.stringValue)]) { r in
                        old = (r.text(0) ?? "", r.integer(1) ?? 0)
                    }
                    let totals = try Self.totals(db)
                    let after = CacheUsage(cost: totals.cost - (old?.size ?? 0), count: totals.count - (old == nil ? 0 : 1))
                    let now = clock.now
                    if policy.evictionTarget(for: CacheUsage(cost: after.cost + size, count: after.count + 1)) != nil {
                        let (victims, files) = try lruEntries(db, excluding: key.stringValue)
                        let chosen = policy.victims(lruOrdered: victims, incoming: CacheUsage(cost: size, count: 1), now: now)
                        evicted = chosen.map(\.stringValue)
                        try deleteRows(evicted, db: db)
                        stale += evicted.compactMap { files[$0] }
                    }
                    let m = entry.metadata
                    // Delete, then insert: REPLACE would skip the delete trigger that keeps the totals.
                    try deleteRows([key.stringValue], db: db)
                    try db.query("""
                        INSERT INTO entries (key, file, size, format, width, height, created, accessed, expires,
                                                        etag, last_modified, fresh_until, source_url)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, [.text(key.stringValue), .text(name), .integer(size), .optional(m.format?.rawValue),
                              .optional(m.pixelSize?.width), .optional(m.pixelSize?.height), .real(created), .real(created),
                              .optional(configuration.timeToLive.map { created + $0 }), .optional(m.etag), .optional(m.lastModified),
                              .optional(m.freshUntil?.timeIntervalSince1970), .optional(m.sourceURL)])
                    if let old { stale.append(old.file) }
                    return (stale, evicted)
                }
                staleFiles = files
                for victim in victims {
                    state.known[victim] = nil
                    state.pendingAccess[victim] = nil
                }
                state.known[key.stringValue] = KnownEntry(file: name, size: size, created: created, accessed: created, metadata: entry.metadata)
                state.pendingAccess[key.stringValue] = nil
            }
        } catch {
            _ = try? await files.run { FileWork.delete([name], in: paths) }
            throw error
        }
        if !staleFiles.isEmpty { try await files.run { [staleFiles] in FileWork.delete(staleFiles, in: paths) } }
        try await sweepIfDue()
    }

    public func updateMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async throws {
        try withIndex { state, db in
            state.known[key.stringValue]?.metadata = metadata
            try db.query("""
                UPDATE entries SET format = ?, width = ?, height = ?, etag = ?, last_modified = ?, fresh_until = ?, source_url = ?
                WHERE key = ?
                """, [.optional(metadata.format?.rawValue), .optional(metadata.pixelSize?.width), .optional(metadata.pixelSize?.height),
                      .optional(metadata.etag), .optional(metadata.lastModified), .optional(metadata.freshUntil?.timeIntervalSince1970),
                      .optional(metadata.sourceURL), .text(key.stringValue)])
        }
    }

    public func removeData(for key: CacheKey) async throws {
        let removed = try withIndex { state, db in
            var file: String?
            try db.query("SELECT file FROM entries WHERE key = ?", [.text(key.stringValue)]) { file = $0.text(0) }
            if file != nil { try removeRows([key.stringValue], db: db, state: &state) }
            return file.map { [$0] } ?? []
        }
        try await delete(removed)
    }

    public func removeData(forSource source: String) async throws {
        let removed = try withIndex { state, db in
            var keys: [String] = [], files: [String] = []
            // The original's key is the source itself; a variant's is `source#variant`.
            try db.query("SELECT key, file FROM entries WHERE key = ?1 OR substr(key, 1, length(?1) + 1) = ?1 || '#'",
                         [.text(CacheKey.storedSource(source))]) {
                keys.append($0.text(0) ?? "")
                files.append($0.text(1) ?? "")
            }
            if !keys.isEmpty { try removeRows(keys, db: db, state: &state) }
            return files
        }
        try await delete(removed)
    }

    /// Deletes the files of rows already removed, on the cache's file threads.
    private func delete(_ removed: [String]) async throws {
        guard !removed.isEmpty else { return }
        let paths = paths
        try await files.run { FileWork.delete(removed, in: paths) }
    }

    public func removeAll() async throws {
        try removeEverything()
    }

    public func usage() async throws -> CacheUsage {
        try withIndex { _, db in try Self.totals(db) }
    }
}
