// Fuzzes the parsing of HTTP response headers: raw header lines as libcurl hands them over,
// then Cache-Control, Expires, Retry-After, ETag and Content-Length values.
import Foundation
import FuzzSupport
import OspreyDomain
@_spi(Parsing) import OspreyNetwork

@_cdecl("FuzzHeaders_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        guard let bytes else { return 0 }
        headerBlock(bytes, count)
        return 0
    }
}

/// Splits the input into lines as a server's header block would arrive, and parses them.
func headerBlock(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
    let raw = UnsafeRawBufferPointer(start: bytes, count: count)
    var fields: [String: String] = [:]
    var start = 0
    // Split into lines as a server's header block would arrive.
    for index in 0...count where index == count || raw[index] == 0x0A {
        let line = UnsafeRawBufferPointer(rebasing: raw[start..<index])
        if case .field(let name, let value) = HTTPHeaderParser.headerLine(line) {
            // A name is a lowercase token: ASCII letters, digits and a few marks only.
            precondition(!name.isEmpty && name.utf8.allSatisfy { $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) && $0 > 0x20 && $0 != 0x3A })
            fields[name] = value
        }
        // What the event loop reads of every line, without allocating.
        if let value = HTTPHeaderParser.value(ofField: "content-length", in: line) {
            precondition(value.count <= line.count)
            if let length = HTTPHeaderParser.contentLength(value) { precondition(length >= 0) }
        }
        start = min(index + 1, count)
    }
    // The caller's reading of the whole block agrees with the line-by-line one.
    precondition(HTTPHeaderParser.fields(in: Array(raw)) == fields)
    let freshness = HTTPHeaderParser.freshness(cacheControl: fields["cache-control"], expires: fields["expires"])
    if let maxAge = freshness.maxAge { precondition(maxAge >= 0) }
    if let retry = HTTPHeaderParser.retryAfter(fields["retry-after"]) { precondition(retry >= 0) }
    if let length = HTTPHeaderParser.contentLength(fields["content-length"]) { precondition(length >= 0) }
    _ = ResponseMetadata(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, headers: fields, freshness: freshness).validators
}
