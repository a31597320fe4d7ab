import Foundation
import OspreyDomain
@_spi(Parsing) @testable import OspreyNetwork
import OspreyContracts
import OspreyTesting
import Testing

@Suite("HTTP header parsing")
struct HTTPHeaderParserTests {
    @Test func headerLinesParseFromRawBytes() {
        func parse(_ text: String) -> HTTPHeaderParser.HeaderLine {
            Array(text.utf8).withUnsafeBytes { HTTPHeaderParser.headerLine($0) }
        }
        #expect(parse("HTTP/1.1 200 OK\r\n") == .statusLine)
        #expect(parse("Content-Type:  image/png \r\n") == .field(name: "content-type", value: "image/png"))
        #expect(parse("ETag:\r\n") == .field(name: "etag", value: ""))
        #expect(parse(": no name\r\n") == .other && parse("\r\n") == .other && parse("garbage") == .other)
        #expect(parse("Conte\u{3BC}t: x\r\n") == .other && parse("Bad Name: x\r\n") == .other, "names are tokens")
        #expect(HTTPHeaderParser.contentLength("1234") == 1234)
        for bad in ["-1", "+5", " 5", "5 ", "", "99999999999999999999", "0x10"] {
            #expect(HTTPHeaderParser.contentLength(bad) == nil, "\(bad)")
        }
    }

    @Test func theLoopReadsOnlyTheFieldsItActsOnWithoutAllocating() {
        func value(_ name: StaticString, _ line: String) -> String? {
            Array(line.utf8).withUnsafeBytes { bytes in
                HTTPHeaderParser.value(ofField: name, in: bytes).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        func length(_ text: String) -> Int64? { Array(text.utf8).withUnsafeBytes { HTTPHeaderParser.contentLength($0) } }
        #expect(value("content-length", "Content-Length:  1234 \r\n") == "1234")
        #expect(value("content-length", "CONTENT-LENGTH:1\r\n") == "1")
        #expect(value("content-length", "Content-Length-X: 1\r\n") == nil)
        #expect(value("content-length", "Content-Lengt: 1\r\n") == nil)
        #expect(value("location", "Location: /next\r\n") == "/next")
        #expect(value("location", "location\r\n") == nil)
        #expect(length("50000") == 50_000)
        #expect(length("9223372036854775807") == Int64.max)
        #expect(length("9223372036854775808") == nil, "past Int64 is refused, not wrapped")
        #expect(length("-1") == nil && length("") == nil && length("1 2") == nil)
        let status = Array("HTTP/1.1 200 OK\r\n".utf8)
        #expect(status.withUnsafeBytes { HTTPHeaderParser.isStatusLine($0) })
        #expect(!Array("HTTP".utf8).withUnsafeBytes { HTTPHeaderParser.isStatusLine($0) })
    }

    @Test func aRawHeaderBlockBecomesFieldsWithTheLastValueOfARepeat() {
        let block = Array("HTTP/1.1 200 OK\r\nETag: \"a\"\r\nCache-Control: max-age=60\r\nbad line\r\nX-Twice: 1\r\nx-twice: 2\nLast: end".utf8)
        #expect(HTTPHeaderParser.fields(in: block) == ["etag": "\"a\"", "cache-control": "max-age=60", "x-twice": "2", "last": "end"])
        #expect(HTTPHeaderParser.fields(in: []).isEmpty)
    }

    /// Inputs the fuzzer found (`make fuzz`), kept so they stay fixed.
    @Test("Fuzzer finds stay fixed", arguments: FuzzRegressions.files("FuzzHeaders"))
    func fuzzRegressions(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if case .field(let name, _) = Array(line).withUnsafeBytes({ HTTPHeaderParser.headerLine($0) }) {
                #expect(!name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }, "\(name)")
            }
        }
    }

    @Test func cacheControlAndExpires() {
        let fresh = HTTPHeaderParser.freshness(cacheControl: "public, max-age=3600, no-cache", expires: "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(fresh.maxAge == 3600 && fresh.noCache && !fresh.noStore)
        #expect(fresh.expires == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPHeaderParser.freshness(cacheControl: "no-store", expires: nil).noStore)
        #expect(HTTPHeaderParser.freshness(cacheControl: "max-age=-5, max-age=abc", expires: "garbage").maxAge == nil)
        #expect(HTTPHeaderParser.retryAfter("7") == 7 && HTTPHeaderParser.retryAfter("soon") == nil)
    }

    @Test func httpDatesAreReadExactlyAndAnythingElseIsNil() {
        #expect(HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.date(from: "Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.date(from: "Tue, 29 Feb 2028 23:59:59 UTC") == Date(timeIntervalSince1970: 1_835_481_599))
        #expect(HTTPDate.date(from: "Wed, 31 Dec 1969 23:59:59 GMT") == Date(timeIntervalSince1970: -1))
        for bad in ["Sun, 06 Nov 1994 08:49:37 PST", "Sun, 31 Nov 1994 08:49:37 GMT", "Thu, 29 Feb 2029 00:00:00 GMT",
                    "Sun, 06 Nov 1994 24:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                    "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:3x GMT", "", ".\t\t\t"] {
            #expect(HTTPDate.date(from: bad) == nil, "\(bad)")
        }
    }
}
