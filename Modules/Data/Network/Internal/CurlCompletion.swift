import CCurl
import Foundation
import OspreyDomain

/// What the event loop knows when a transfer ends, copied out of libcurl and handed to the
/// caller's task as it is: reading the headers and deciding the outcome (`CurlOutcome`)
/// happen there, off the one thread every transfer shares.
struct CurlCompletion: @unchecked Sendable {  // CURLcode is a plain C enum
    let code: CURLcode
    let status: Int
    /// `CURLINFO_EFFECTIVE_URL`, where the last request went, when not the request's own URL.
    let effectiveURL: String?
    /// `CURLINFO_REDIRECT_URL`: where a redirect not followed pointed.
    let redirectURL: String?
    let errorMessage: String
    /// The header lines of the last response, raw, as libcurl delivered them.
    let headerBlock: [UInt8]
    let body: Data
    /// Body bytes received: `body.count`, or what was written to the transfer's sink.
    let bodyLength: Int
    let expectedLength: Int64?
    let overLimit: Bool
    let limit: Int64
    /// The errno of a failed write to the transfer's sink, 0 when none failed.
    let writeFailure: Int32
    /// Why a connection or a redirect was refused (`SourceGuard`).
    let refusal: SourceRefusal?
    /// A redirect from https to http, stopped before it was followed.
    let insecureRedirectTarget: String?
}
