import Foundation
import OspreyDomain

extension DiskCache {
    /// Files younger than this are left alone by repairs: another process may be between
    /// renaming its file into place and committing its row.
    static let settleTime: TimeInterval = 60

    /// Repairs at open: stale temporary files go, rows whose file is missing or the wrong
    /// size go, files no row names go; then the idle-session purge and the expiry sweep.
    func recoverAtOpen() throws {
        let now = clock.now
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: paths.temporaryFolder.path)) ?? [] {
            let url = paths.temporaryFolder.appendingPathComponent(name)
            if Self.age(of: url, now: now) > Self.settleTime { try? fm.removeItem(at: url) }
        }
        let removed = try withIndex { state, db in
            var removed: [String] = []
            var rows: [(key: String, file: String, size: Int)] = []
            try db.query("SELECT key, file, size FROM entries") { r in rows.append((r.text(0) ?? "", r.text(1) ?? "", r.integer(2) ?? -1)) }
            let broken = rows.filter { Self.fileSize(paths.file($0.file)) != $0.size }
            if !broken.isEmpty {
                logger.warning("disk cache dropped entries whose file is missing or damaged", metadata: ["count": "\(broken.count)"])
                try removeRows(broken.map(\.key), db: db, state: &state)
                removed += broken.map(\.file)
            }
            let indexed = Set(rows.map(\.file))
            for file in Self.dataFiles(in: paths.data) where !indexed.contains(file) {
                let url = paths.file(file)
                if Self.age(of: url, now: now) > Self.settleTime { try? fm.removeItem(at: url) }
            }
            var lastOpened: Double?
            try db.query("SELECT value FROM meta WHERE name = 'last_opened'") { lastOpened = $0.text(0).flatMap(Double.init) }
            try db.query("INSERT OR REPLACE INTO meta VALUES ('last_opened', ?)", [.text(String(now.timeIntervalSince1970))])
            if let lastOpened, policy.shouldPurgeAll(lastOpened: Date(timeIntervalSince1970: lastOpened), now: now) {
                logger.info("disk cache unused for too long; clearing it")
                let (entries, files) = try lruEntries(db)
                try removeRows(entries.map(\.key.stringValue), db: db, state: &state)
                removed += files.values
            }
            return removed
        }
        FileWork.delete(removed, in: paths)
        try sweep()
    }

    /// Removes expired entries and applies the limits now (`osprey cache clean`).
    public func sweep() throws {
        FileWork.delete(try sweepIndex(), in: paths)
    }

    /// Sweeps when the sweep interval has passed since the last one.
    func sweepIfDue() async throws {
        let due = state.withLock { clock.now.timeIntervalSince1970 - $0.lastSweep >= configuration.sweepInterval }
        guard due else { return }
        let removed = try sweepIndex()
        if !removed.isEmpty {
            let paths = paths
            try await files.run { FileWork.delete(removed, in: paths) }
        }
    }

    /// Removes the rows a sweep evicts and returns their files.
    private func sweepIndex() throws -> [String] {
        try withIndex { state, db in
            try flushAccess(&state)
            let (entries, files) = try lruEntries(db)
            let victims = policy.victims(lruOrdered: entries, now: clock.now).map(\.stringValue)
            if !victims.isEmpty { try removeRows(victims, db: db, state: &state) }
            state.lastSweep = clock.now.timeIntervalSince1970
            return victims.compactMap { files[$0] }
        }
    }

    /// Removes every entry and file.
    func removeEverything() throws {
        try withIndex { state, db in
            try db.transaction { () throws(SQLiteError) in try db.execute("DELETE FROM entries") }
            state.pendingAccess = [:]
            state.known = [:]
        }
        try? FileManager.default.removeItem(at: paths.data)
        try? FileManager.default.createDirectory(at: paths.data, withIntermediateDirectories: true)
    }

    /// Entries, bytes, limit and the access range.
    public func statistics() throws -> Statistics {
        try withIndex { state, db in
            try flushAccess(&state)
            let totals = try Self.totals(db)
            var range: (Double?, Double?) = (nil, nil)
            try db.query("SELECT MIN(accessed), MAX(accessed) FROM entries") { range = ($0.real(0), $0.real(1)) }
            return Statistics(entries: totals.count, bytes: totals.cost, limitBytes: configuration.sizeLimit,
                              oldestAccess: range.0.map { Date(timeIntervalSince1970: $0) },
                              newestAccess: range.1.map { Date(timeIntervalSince1970: $0) })
        }
    }

    /// Every entry, most recently used first.
    public func entries() throws -> [Entry] {
        try withIndex { state, db in
            try flushAccess(&state)
            var entries: [Entry] = []
            try db.query("SELECT \(Self.columns) FROM entries ORDER BY accessed DESC") { entries.append(Self.decodeRow($0).entry) }
            return entries
        }
    }

    /// Checks that the index and the files agree: the database is sound, every row's file
    /// exists with the recorded size, no settled file lacks a row, and the totals add up.
    public func verify() throws -> Verification {
        try withIndex { _, db in
            var problems: [String] = []
            var check = ""
            try db.query("PRAGMA integrity_check") { check = $0.text(0) ?? "" }
            if check != "ok" { problems.append("index integrity: \(check)") }
            var rows: [(key: String, file: String, size: Int)] = []
            try db.query("SELECT key, file, size FROM entries") { r in rows.append((r.text(0) ?? "", r.text(1) ?? "", r.integer(2) ?? -1)) }
            for row in rows {
                let actual = Self.fileSize(paths.file(row.file))
                if actual != row.size { problems.append("\(row.key): file \(row.file) has \(actual.map(String.init) ?? "no") bytes, index says \(row.size)") }
            }
            let indexed = Set(rows.map(\.file))
            let now = clock.now
            for file in Self.dataFiles(in: paths.data) where !indexed.contains(file) && Self.age(of: paths.file(file), now: now) > Self.settleTime {
                problems.append("file \(file) is in no index row")
            }
            let totals = try Self.totals(db)
            let sum = rows.reduce(0) { $0 + $1.size }
            if totals != CacheUsage(cost: sum, count: rows.count) {
                problems.append("totals say \(totals), rows add up to \(rows.count) entries, \(sum) bytes")
            }
            return Verification(entries: rows.count, problems: problems)
        }
    }

    /// Every file below `data`, as `ab/<name>`.
    static func dataFiles(in data: URL) -> [String] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: data.path)) ?? []).flatMap { shard in
            ((try? fm.contentsOfDirectory(atPath: data.appendingPathComponent(shard).path)) ?? []).map { "\(shard)/\($0)" }
        }
    }

    static func age(of url: URL, now: Date) -> TimeInterval {
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date else { return 0 }
        return now.timeIntervalSince(modified)
    }
}
