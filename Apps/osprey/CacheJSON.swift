import ArgumentParser
import Foundation
import Osprey
import OspreyDiskCache

enum CacheJSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func date(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
