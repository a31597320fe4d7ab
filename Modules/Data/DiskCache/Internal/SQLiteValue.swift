import CSQLite
import Foundation

/// A value bound to a statement.
enum SQLiteValue {
    case null
    case integer(Int)
    case real(Double)
    case text(String)

    static func optional(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
    static func optional(_ number: Int?) -> SQLiteValue { number.map(SQLiteValue.integer) ?? .null }
    static func optional(_ number: Double?) -> SQLiteValue { number.map(SQLiteValue.real) ?? .null }
}
