import Foundation
import Logging

/// Log records as JSON lines on standard error (`--log-format json`, as imgproxy's): the
/// time, level, message, logger label and metadata of each, one object a line, for log
/// collectors that read JSON.
struct JSONLogHandler: LogHandler {
    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var record: [String: String] = ["time": ISO8601DateFormatter().string(from: Date()), "level": event.level.rawValue,
                                        "msg": event.message.description, "logger": label]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { record[key] = value.description }
        guard var line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }
}
