import Foundation
import OspreyDomain

/// A request to a service the operator configured — an object store's API, AWS STS, the
/// instance metadata service — rather than an image source: any method and body, sent to its
/// address without the loader's ``CurlDataLoader/Configuration/addressPolicy``, following no
/// redirect, and answered whatever its status. Package API, so that no URL a client sends
/// becomes one (the metadata service's link-local address stays refused for sources).
package struct ServiceCall: Sendable {
    package var method: String
    package var url: URL
    package var headers: [String: String]
    package var body: Data?
    /// Credentials to sign the call with (Signature Version 4), if the service wants them.
    package var signing: AWSSigning?

    package init(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, signing: AWSSigning? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.signing = signing
    }

    /// `application/x-www-form-urlencoded` text of `parameters`, in their order (STS's query
    /// API, OAuth's token endpoint).
    package static func form(_ parameters: [(String, String)]) -> String {
        parameters.map { URIEncoding.encode($0.0) + "=" + URIEncoding.encode($0.1) }.joined(separator: "&")
    }
}
