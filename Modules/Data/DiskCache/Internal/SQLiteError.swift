import CLibraryLoader
import CSQLite
import Foundation

/// An SQLite failure with its code and message.
struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String {
        // Without the library (it is opened on first use) there is no text for the code.
        let name = osp_sqlite_available() == 1 ? String(cString: sqlite3_errstr(code)) : "error"
        return "SQLite \(name) (\(code)): \(message)"
    }
    /// The database file is damaged or not a database.
    var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}
