import Foundation
import Osprey

/// A setting's value as one source gave it, being read onto a configuration: the parsers
/// each take the value's range and throw a ``ServerSettingError`` naming the setting as the
/// operator spelled it.
package struct SettingInput {
    /// Where a value came from, in increasing precedence.
    package enum Source: Sendable { case imgproxy, osprey, flag }

    package var server: ServerConfiguration
    /// What start-up tells the operator once.
    package var notices: [String]
    package let source: Source
    /// The setting as spelled: `--quality`, `OSPREY_QUALITY`, or imgproxy's variable.
    package let name: String
    /// The values given: each occurrence of a flag, or a variable's text.
    package let values: [String]
    /// Every value this source gives, by flag: settings read together (keys and salts).
    let given: [String: [String]]
    /// The whole environment, for what imgproxy reads beside its own variables (`AWS_…`).
    let environment: [String: String]

    var service: ImageService.Configuration {
        get { server.service }
        set { server.service = newValue }
    }

    /// The value (the last, if given more than once).
    var text: String { values.last ?? "" }

    /// A setting this source also gives, by flag, as its raw values.
    func other(_ flag: String) -> [String]? { given[flag] }

    func failure(_ reason: String) -> ServerSettingError { ServerSettingError(name: name, reason: reason) }

    /// A list: a flag's values as given, a variable's split by `separator`, each trimmed,
    /// empty ones dropped.
    func list(separator: String = ",") -> [String] {
        items(values, separator: separator)
    }

    /// Another setting's values from this source, as a list.
    func list(of flag: String, separator: String = ",") -> [String] {
        items(given[flag] ?? [], separator: separator)
    }

    private func items(_ values: [String], separator: String) -> [String] {
        let items = source == .flag ? values : values.flatMap { $0.components(separatedBy: separator) }
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func int(_ range: ClosedRange<Int>) throws(ServerSettingError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw failure("\(text) is not a whole number in \(Self.describe(range))")
        }
        return value
    }

    func double(_ range: ClosedRange<Double>) throws(ServerSettingError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
            throw failure("\(text) is not a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// Seconds, whole for imgproxy's variables, as a positive duration at most a day.
    func seconds() throws(ServerSettingError) -> Duration {
        if source == .imgproxy { return .seconds(try int(1...86_400)) }
        return .milliseconds(Int64(try double(0.001...86_400) * 1000))
    }

    /// Go's `strconv.ParseBool`, which imgproxy reads switches with; a flag given is on.
    func bool() throws(ServerSettingError) -> Bool {
        guard let value = Self.goBool(text) else { throw failure("\(text) is not a boolean") }
        return value
    }

    static func goBool(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "T", "TRUE", "true", "True": true
        case "0", "f", "F", "FALSE", "false", "False": false
        default: nil
        }
    }

    /// A size such as `300MB` or `2GiB`; a bare number is megabytes for Osprey's settings and
    /// bytes for imgproxy's.
    func bytes() throws(ServerSettingError) -> Int {
        let bare = Double(text.trimmingCharacters(in: .whitespaces))
        if let bare, source == .imgproxy, bare >= 0, bare < 9e18 { return Int(bare) }
        guard let size = ByteSize(text) else { throw failure("\(text): give a size such as 300MB, 2GiB or 0") }
        return size.bytes
    }

    func formats() throws(ServerSettingError) -> [ImageFormat] {
        var formats: [ImageFormat] = []
        for item in list() {
            guard let format = ImageFormat(fileExtension: item.lowercased()) else { throw failure("\(item) is not a format") }
            formats.append(format)
        }
        return formats
    }

    /// `HOST:PORT`, `:PORT` (every address) or `[IPv6]:PORT`.
    func address() throws(ServerSettingError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw failure("\(text): give HOST:PORT or :PORT")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    /// imgproxy's URL paths: a leading slash, no trailing one.
    func urlPath() -> String {
        var path = text.hasPrefix("/") ? text : "/" + text
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "/" ? "" : path
    }

    /// A local file's path, made absolute.
    func filePath() -> String { URL(fileURLWithPath: text).standardizedFileURL.path }

    /// Base64 data as a `data:` URL, read as any source is: no file is written for it.
    func dataURL() throws(ServerSettingError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard Data(base64Encoded: trimmed) != nil, let url = URL(string: "data:application/octet-stream;base64," + trimmed) else {
            throw failure("not base64")
        }
        return url
    }

    static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == .max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
    }
}
