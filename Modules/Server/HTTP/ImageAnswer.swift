import Foundation
import HTTPTypes
import Hummingbird
import OspreyDomain

/// An answer as the service makes it, apart from HTTP's types: the status, the headers, the
/// bytes (counted by the memory budget until written) and the validators a conditional
/// request is checked against.
package struct ImageAnswer: Sendable {
    package var status: HTTPResponse.Status
    package var headers: HTTPFields
    package let body: Data
    /// The tag and date a client may hold the answer by; `nil`: answered whole whatever it holds.
    let validators: Validators?
    let budget: MemoryBudget?

    struct Validators: Sendable {
        let tag: EntityTag?
        let lastModified: String?
    }

    /// The response to a request with `conditions`: a `304` with the answer's headers when the
    /// client holds it already, else the answer with its type.
    package func response(conditions: Conditions) -> Response {
        if let validators, conditions.areMet(tag: validators.tag, lastModified: validators.lastModified) {
            var headers = self.headers
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: status, headers: headers, body: .answer(body, countedBy: budget))
    }
}
