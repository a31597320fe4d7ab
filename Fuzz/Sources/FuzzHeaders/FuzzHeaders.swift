// Fuzzes the parsing of HTTP response headers: raw header lines as libcurl hands them over,
// then Cache-Control, Expires, Retry-After, ETag and Content-Length values.
import Foundation
import OspreyDomain
import OspreyNetwork

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: bytes, count: count)
    var fields: [String: String] = [:]
    var start = 0
    // Split into lines as a server's header block would arrive.
    for index in 0...count where index == count || raw[index] == 0x0A {
        let line = UnsafeRawBufferPointer(rebasing: raw[start..<index])
        if case .field(let name, let value) = HTTPHeaderParser.headerLine(line) {
            precondition(name == name.lowercased())
            fields[name] = value
        }
        start = min(index + 1, count)
    }
    let freshness = HTTPHeaderParser.freshness(cacheControl: fields["cache-control"], expires: fields["expires"])
    if let maxAge = freshness.maxAge { precondition(maxAge >= 0) }
    if let retry = HTTPHeaderParser.retryAfter(fields["retry-after"]) { precondition(retry >= 0) }
    if let length = HTTPHeaderParser.contentLength(fields["content-length"]) { precondition(length >= 0) }
    _ = ResponseMetadata(url: URL(string: "http://127.0.0.1/")!, statusCode: 200, headers: fields, freshness: freshness).validators
    return 0
}
