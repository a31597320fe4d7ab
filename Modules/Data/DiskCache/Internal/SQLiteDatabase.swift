import CLibraryLoader
import CSQLite
import Foundation

/// The few SQLite calls the disk cache needs. Not thread-safe: ``DiskCache`` holds it under
/// a mutex.
/// `@unchecked Sendable`: it is only ever used while holding `DiskCache`'s mutex.
final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, reused: preparing costs more than a lookup.
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    /// Opens (creating) the database at `path`.
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        self.path = path
        guard osp_sqlite_available() == 1 else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "libsqlite3 cannot be loaded: \(String(cString: osp_sqlite_load_error()))")
        }
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK else {
            let error = SQLiteError(code: status, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close(handle)
            handle = nil
            throw error
        }
        sqlite3_busy_timeout(handle, 10_000)  // another process writing: wait, do not fail
    }

    deinit { close() }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error \(status)"
            sqlite3_free(message)
            throw SQLiteError(code: status, message: text)
        }
    }

    /// Runs `sql` with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [SQLiteValue] = [], row: (SQLiteRow) throws(SQLiteError) -> Void = { _ in }) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let v): sqlite3_bind_int64(statement, position, Int64(v))
            case .real(let v): sqlite3_bind_double(statement, position, v)
            case .text(let v): sqlite3_bind_text(statement, position, v, -1, SQLiteDatabase.transient)
            }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw lastError() }
            try row(SQLiteRow(statement: statement))
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw lastError() }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`),
    /// so two processes' writers queue instead of failing half-way.
    func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func lastError() -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound text (a macro Swift cannot import).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
