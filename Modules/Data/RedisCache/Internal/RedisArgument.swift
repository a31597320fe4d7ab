import Glibc
import CHiredis
import Foundation

/// One argument of a Redis command: text or bytes.
struct RedisArgument: ExpressibleByStringLiteral, Sendable {
    let bytes: Data

    init(_ data: Data) { bytes = data }
    init(_ text: String) { bytes = Data(text.utf8) }
    init(_ number: Int) { bytes = Data(String(number).utf8) }
    init(stringLiteral value: String) { self.init(value) }
}
