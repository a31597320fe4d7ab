import Foundation
import HTTPTypes
@_spi(Parsing) import OspreyNetwork

/// A request's conditions on what it holds: `If-None-Match`, else `If-Modified-Since`
/// (RFC 9110, 13.2.2: the date is not looked at when a tag is given).
struct Conditions {
    let ifNoneMatch: String?
    let ifModifiedSince: Date?

    init(_ headers: HTTPFields) {
        ifNoneMatch = headers[.ifNoneMatch]
        ifModifiedSince = headers[.ifModifiedSince].flatMap(HTTPHeaderParser.httpDate)
    }

    /// Whether the client holds `answer` already, so that a `304` answers.
    func areMet(by answer: EncodedAnswer) -> Bool {
        if let ifNoneMatch { return answer.tag.matches(ifNoneMatch: ifNoneMatch) }
        guard let ifModifiedSince, let lastModified = answer.lastModified.flatMap(HTTPHeaderParser.httpDate) else { return false }
        return lastModified <= ifModifiedSince
    }
}
