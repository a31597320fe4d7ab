import CHiredis
import Foundation

/// A Redis reply, copied out of hiredis's `redisReply` tree.
enum RedisReply: Sendable, Equatable {
    case string(Data)
    case integer(Int)
    case array([RedisReply])
    case null
    case status(String)
    case error(String)

    init(_ reply: UnsafeMutablePointer<redisReply>) {
        let r = reply.pointee
        switch r.type {
        case REDIS_REPLY_STRING:
            self = .string(r.str.map { Data(bytes: $0, count: r.len) } ?? Data())
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(r.integer))
        case REDIS_REPLY_ARRAY:
            self = .array((0..<r.elements).map { RedisReply(r.element[$0]!) })
        case REDIS_REPLY_STATUS:
            self = .status(r.str.map { String(cString: $0) } ?? "")
        case REDIS_REPLY_ERROR:
            self = .error(r.str.map { String(cString: $0) } ?? "error")
        default:
            self = .null
        }
    }

    /// The integer a reply carries, as an integer or its decimal string.
    var integer: Int? {
        switch self {
        case .integer(let value): value
        case .string(let data): Int(String(decoding: data, as: UTF8.self))
        default: nil
        }
    }

    /// The elements of an array reply; empty otherwise.
    var elements: [RedisReply] {
        if case .array(let elements) = self { return elements }
        return []
    }
}
