import Foundation
import HTTPTypes
import OspreyDomain

/// A request's conditions on what it holds: `If-None-Match`, else `If-Modified-Since`
/// (RFC 9110, 13.2.2: the date is not looked at when a tag is given).
package struct Conditions: Sendable {
    let ifNoneMatch: String?
    let ifModifiedSince: Date?

    package init(_ headers: HTTPFields) {
        ifNoneMatch = headers[.ifNoneMatch]
        ifModifiedSince = headers[.ifModifiedSince].flatMap(HTTPDate.date(from:))
    }

    /// Whether the client holds the answer tagged `tag`, last modified at `lastModified`,
    /// already, so that a `304` answers.
    func areMet(tag: EntityTag?, lastModified: String?) -> Bool {
        if let ifNoneMatch { return tag?.matches(ifNoneMatch: ifNoneMatch) ?? false }
        guard let ifModifiedSince, let lastModified = lastModified.flatMap(HTTPDate.date(from:)) else { return false }
        return lastModified <= ifModifiedSince
    }
}
