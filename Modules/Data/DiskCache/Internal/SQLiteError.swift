import CSQLite
import Foundation

/// An SQLite failure with its code and message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite \(String(cString: sqlite3_errstr(code))) (\(code)): \(message)" }
    /// The database file is damaged or not a database.
    var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}
