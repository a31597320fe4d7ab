import Foundation
import OspreyDomain

/// Parses the response headers Osprey acts on: `Cache-Control`, `Expires`, `Retry-After`.
/// Lenient by design: anything malformed is ignored rather than trusted.
@_spi(Parsing) public enum HTTPHeaderParser {
    /// Freshness from `Cache-Control` (`no-store`, `no-cache`, `max-age`) and `Expires`.
    public static func freshness(cacheControl: String?, expires: String?) -> HTTPFreshness {
        var freshness = HTTPFreshness()
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            switch name {
            case "no-store": freshness.noStore = true
            case "no-cache": freshness.noCache = true
            case "max-age":
                if parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                    freshness.maxAge = seconds
                }
            default: break
            }
        }
        freshness.expires = expires.flatMap(HTTPDate.date(from:))
        return freshness
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date relative to `now`.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        return HTTPDate.date(from: value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// One line of a response's header block, as libcurl hands it over.
    public enum HeaderLine: Hashable, Sendable {
        /// `HTTP/…`: a new response begins (after a redirect or `100 Continue`).
        case statusLine
        /// `Name: value`, the name lowercased, the value without surrounding blanks.
        case field(name: String, value: String)
        /// Anything else: the blank line that ends the block, or a malformed line.
        case other
    }

    /// Parses one header line from raw bytes (no Foundation trimming: this runs per line
    /// of every response, and its input comes straight from the network).
    public static func headerLine(_ line: UnsafeRawBufferPointer) -> HeaderLine {
        let bytes = line.bindMemory(to: UInt8.self)
        var end = bytes.count
        while end > 0 && isBlank(bytes[end - 1]) { end -= 1 }
        if isStatusLine(UnsafeRawBufferPointer(rebasing: line[0..<end])) { return .statusLine }
        // A field name is a token (RFC 9110): anything else makes the line malformed.
        guard let colon = bytes[0..<end].firstIndex(of: 0x3A), colon > 0, bytes[0..<colon].allSatisfy(isTokenByte) else { return .other }
        var valueStart = colon + 1
        while valueStart < end && isBlank(bytes[valueStart]) { valueStart += 1 }
        let name = String(unsafeUninitializedCapacity: colon) { name in
            for i in 0..<colon { name[i] = bytes[i] >= 0x41 && bytes[i] <= 0x5A ? bytes[i] + 0x20 : bytes[i] }
            return colon
        }
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]), as: UTF8.self)
        return .field(name: name, value: value)
    }

    /// Whether a raw header line starts a response (`HTTP/…`).
    public static func isStatusLine(_ line: UnsafeRawBufferPointer) -> Bool {
        line.count >= 5 && line[0] == 0x48 && line[1] == 0x54 && line[2] == 0x54 && line[3] == 0x50 && line[4] == 0x2F
    }

    /// The status code of a raw status line (`HTTP/1.1 302 Found`, `HTTP/2 200`).
    public static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
        guard isStatusLine(line), let space = line.firstIndex(of: 0x20), space + 3 < line.count,
              line[(space + 1)...(space + 3)].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return line[(space + 1)...(space + 3)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The value of a raw header line if its field is `lowercaseName` (compared without
    /// regard to case), without surrounding blanks; `nil` for any other line. Allocates
    /// nothing: the event loop asks this of every line.
    public static func value(ofField lowercaseName: StaticString, in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let count = lowercaseName.utf8CodeUnitCount
        guard line.count > count, line[count] == UInt8(ascii: ":") else { return nil }
        let name = lowercaseName.utf8Start
        for i in 0..<count where line[i] | (line[i] >= 0x41 && line[i] <= 0x5A ? 0x20 : 0) != name[i] { return nil }
        var start = count + 1, end = line.count
        while start < end && isBlank(line[start]) { start += 1 }
        while end > start && isBlank(line[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[start..<end])
    }

    /// `Content-Length` from raw bytes: ASCII digits only (no sign, no blanks), within Int64.
    public static func contentLength(_ value: UnsafeRawBufferPointer) -> Int64? {
        guard !value.isEmpty else { return nil }
        var length: Int64 = 0
        for byte in value {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflowA) = length.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowA && !overflowB else { return nil }
            length = sum
        }
        return length
    }

    /// The fields of a raw header block (lines ending in CRLF or LF), names lowercased; a
    /// repeated field keeps its last value. Malformed lines are skipped.
    public static func fields(in block: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        fields.reserveCapacity(block.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
        block.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if case .field(let name, let value) = headerLine(UnsafeRawBufferPointer(rebasing: bytes[start..<min(end + 1, bytes.count)])) {
                    fields[name] = value
                }
                start = end + 1
            }
        }
        return fields
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

    /// A `tchar` of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// `Content-Length` as a byte count: ASCII digits only (no sign, no blanks), within Int64.
    public static func contentLength(_ value: String?) -> Int64? {
        guard let value else { return nil }
        return Array(value.utf8).withUnsafeBytes { contentLength($0) }
    }
}
