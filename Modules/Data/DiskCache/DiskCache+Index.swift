import CSQLite
import Foundation
import Logging
import OspreyDomain

extension DiskCache {
    static let columns = "key, file, size, format, width, height, created, accessed, expires, etag, last_modified, fresh_until, source_url"

    static let schema = """
        PRAGMA journal_mode = WAL;
        PRAGMA synchronous = NORMAL;
        PRAGMA cache_size = -16384;
        PRAGMA mmap_size = 268435456;
        CREATE TABLE IF NOT EXISTS entries (
            key TEXT PRIMARY KEY, file TEXT NOT NULL, size INTEGER NOT NULL, format TEXT, width INTEGER, height INTEGER,
            created REAL NOT NULL, accessed REAL NOT NULL, expires REAL, etag TEXT, last_modified TEXT,
            fresh_until REAL, source_url TEXT);
        CREATE INDEX IF NOT EXISTS entries_by_access ON entries (accessed);
        CREATE TABLE IF NOT EXISTS totals (id INTEGER PRIMARY KEY CHECK (id = 1), bytes INTEGER NOT NULL, count INTEGER NOT NULL);
        INSERT OR IGNORE INTO totals VALUES (1, 0, 0);
        CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries
            BEGIN UPDATE totals SET bytes = bytes + NEW.size, count = count + 1 WHERE id = 1; END;
        CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries
            BEGIN UPDATE totals SET bytes = bytes - OLD.size, count = count - 1 WHERE id = 1; END;
        CREATE TRIGGER IF NOT EXISTS entries_resized AFTER UPDATE OF size ON entries
            BEGIN UPDATE totals SET bytes = bytes - OLD.size + NEW.size WHERE id = 1; END;
        CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
        """

    /// Opens the index; a damaged one is moved aside and a new one built, keeping every row
    /// of the old one that can still be read and whose file is intact.
    static func openIndex(paths: Paths, rebuildingIfDamaged: Bool, logger: Logger) throws -> SQLiteDatabase {
        do {
            try FileManager.default.createDirectory(at: paths.data, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: paths.temporaryFolder, withIntermediateDirectories: true)
        } catch {
            throw DataCacheError.storageFailed(reason: fileErrorReason(error))
        }
        do {
            let db = try SQLiteDatabase(path: paths.index.path)
            try db.execute(schema)
            var check = ""
            try db.query("PRAGMA quick_check") { check = $0.text(0) ?? "" }
            guard check == "ok" else { throw SQLiteError(code: SQLITE_CORRUPT, message: "quick_check: \(check)") }
            return db
        } catch let error as SQLiteError where error.isCorruption {
            guard rebuildingIfDamaged else { throw DataCacheError.corruptIndex(reason: error.description) }
            logger.error("disk cache index is damaged; rebuilding", metadata: ["error": "\(error)"])
            return try rebuildIndex(paths: paths)
        } catch {
            throw DataCacheError.storageFailed(reason: "\(error)")
        }
    }

    private static func rebuildIndex(paths: Paths) throws -> SQLiteDatabase {
        let aside = paths.root.appendingPathComponent("index.sqlite.damaged-\(Int(Date().timeIntervalSince1970))")
        try? FileManager.default.moveItem(at: paths.index, to: aside)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: paths.index.path + suffix) }
        do {
            let db = try SQLiteDatabase(path: paths.index.path)
            try db.execute(schema)
            // Salvage: whatever rows the damaged index still yields, if their files are intact.
            if let old = try? SQLiteDatabase(path: aside.path, readOnly: true) {
                var rows: [[SQLiteValue]] = []
                try? old.query("SELECT \(columns) FROM entries") { r in
                    rows.append((0..<13).map { i in
                        if let t = r.text(Int32(i)), [0, 1, 3, 9, 10, 12].contains(i) { return .text(t) }
                        if let n = r.integer(Int32(i)), [2, 4, 5].contains(i) { return .integer(n) }
                        if let d = r.real(Int32(i)), [6, 7, 8, 11].contains(i) { return .real(d) }
                        return .null
                    })
                }
                for row in rows {
                    guard case .text(let file) = row[1], case .integer(let size) = row[2],
                          fileSize(paths.file(file)) == size else { continue }
                    try? db.query("INSERT OR IGNORE INTO entries (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
                }
            }
            return db
        } catch {
            throw DataCacheError.corruptIndex(reason: "\(error)")
        }
    }

    /// Runs `body` with the open index under the lock; SQLite failures become typed errors.
    func withIndex<T>(_ body: (inout State, SQLiteDatabase) throws -> T) throws -> T {
        try state.withLock { state in
            guard let db = state.database else { throw DataCacheError.storageFailed(reason: "the cache is closed") }
            do {
                return try body(&state, db)
            } catch let error as SQLiteError {
                throw error.isCorruption ? DataCacheError.corruptIndex(reason: error.description)
                                         : DataCacheError.storageFailed(reason: error.description)
            }
        }
    }

    /// Writes the batched last-access times in one transaction.
    func flushAccess(_ state: inout State) throws(SQLiteError) {
        guard !state.pendingAccess.isEmpty, let db = state.database else { return }
        let pending = state.pendingAccess
        let ttl = configuration.timeToLive
        try db.transaction { () throws(SQLiteError) in
            for (key, accessed) in pending {
                try db.query("UPDATE entries SET accessed = ?, expires = ? WHERE key = ?",
                             [.real(accessed), .optional(ttl.map { accessed + $0 }), .text(key)])
            }
        }
        state.pendingAccess = [:]
    }

    /// Removes rows from the index and its mirror; the caller deletes their files after
    /// leaving the lock.
    func removeRows(_ keys: [String], db: SQLiteDatabase, state: inout State) throws(SQLiteError) {
        try db.transaction { () throws(SQLiteError) in try deleteRows(keys, db: db) }
        for key in keys {
            state.pendingAccess[key] = nil
            state.known[key] = nil
        }
    }

    /// The index's row for `key`, mirrored into `state.known` (or dropped from it).
    func lookUp(_ key: String, db: SQLiteDatabase, state: inout State) throws(SQLiteError) -> KnownEntry? {
        var found: KnownEntry?
        try db.query("SELECT \(Self.columns) FROM entries WHERE key = ?", [.text(key)]) { found = KnownEntry(row: Self.decodeRow($0)) }
        if var entry = found, let pending = state.pendingAccess[key] { entry.accessed = max(entry.accessed, pending); found = entry }
        state.known[key] = found
        return found
    }

    /// Mirrors every row of the index in memory.
    func reloadKnown(_ db: SQLiteDatabase, state: inout State) throws(SQLiteError) {
        var known: [String: KnownEntry] = [:]
        try db.query("SELECT \(Self.columns) FROM entries") { row in
            let decoded = Self.decodeRow(row)
            known[decoded.entry.key] = KnownEntry(row: decoded)
        }
        state.known = known
    }

    func deleteRows(_ keys: [String], db: SQLiteDatabase) throws(SQLiteError) {
        for key in keys { try db.query("DELETE FROM entries WHERE key = ?", [.text(key)]) }
    }

    /// Every entry but `excluding`, least recently used first, with its file.
    func lruEntries(_ db: SQLiteDatabase, excluding: String? = nil) throws(SQLiteError) -> ([CacheEntryInfo], [String: String]) {
        var entries: [CacheEntryInfo] = []
        var files: [String: String] = [:]
        try db.query("SELECT key, file, size, created, accessed FROM entries ORDER BY accessed, created") { r in
            guard let key = r.text(0), key != excluding else { return }
            files[key] = r.text(1)
            entries.append(CacheEntryInfo(key: CacheKey(rawStored: key), cost: r.integer(2) ?? 0,
                                          createdAt: Date(timeIntervalSince1970: r.real(3) ?? 0),
                                          lastAccessAt: Date(timeIntervalSince1970: r.real(4) ?? 0)))
        }
        return (entries, files)
    }

    static func totals(_ db: SQLiteDatabase) throws(SQLiteError) -> CacheUsage {
        var usage = CacheUsage.zero
        try db.query("SELECT bytes, count FROM totals WHERE id = 1") { r in
            usage = CacheUsage(cost: r.integer(0) ?? 0, count: r.integer(1) ?? 0)
        }
        return usage
    }

    static func decodeRow(_ r: SQLiteRow) -> IndexRow {
        let width = r.integer(4), height = r.integer(5)
        let entry = Entry(
            key: r.text(0) ?? "", size: r.integer(2) ?? 0, format: r.text(3),
            created: Date(timeIntervalSince1970: r.real(6) ?? 0), accessed: Date(timeIntervalSince1970: r.real(7) ?? 0),
            expires: r.real(8).map { Date(timeIntervalSince1970: $0) }, sourceURL: r.text(12)
        )
        let metadata = CachedDataMetadata(
            format: r.text(3).map(ImageFormat.init(rawValue:)),
            pixelSize: width.flatMap { w in height.map { PixelSize(width: w, height: $0) } },
            etag: r.text(9), lastModified: r.text(10),
            freshUntil: r.real(11).map { Date(timeIntervalSince1970: $0) }, sourceURL: r.text(12)
        )
        return IndexRow(entry: entry, file: r.text(1) ?? "", metadata: metadata)
    }

    static func fileSize(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
    }
}

extension CacheKey {
    /// A key read back from the index, where it is stored as ``stringValue``.
    init(rawStored: String) { self.init(stringValue: rawStored) }
}
