import Foundation

/// Why a ``DataLoading`` could not deliver bytes.
public enum DataLoadingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL's scheme is not one the loader fetches.
    case unsupportedScheme(String, url: String)
    /// The server answered with a status outside 2xx (and not a requested 304).
    case httpStatus(Int, url: String)
    /// The connection could not be made or broke.
    case connectionFailed(url: String, reason: String)
    /// A timeout ran out.
    case timedOut(Timeout, url: String)
    /// The body was longer than the loader's size limit.
    case responseTooLarge(limit: Int64, url: String)
    /// The body ended before its announced `Content-Length`.
    case truncated(received: Int64, expected: Int64, url: String)
    /// Redirects went past the limit or looped.
    case tooManyRedirects(limit: Int, url: String)
    /// A redirect would have gone from `https` to `http`.
    case insecureRedirect(from: String, to: String)
    /// The server's TLS certificate could not be verified (verification is always on).
    case untrustedServer(url: String, reason: String)
    /// Any other transport failure, with the transport's own message.
    case transport(String, url: String)
    /// A `file:` URL names no file (or a folder).
    case fileNotFound(url: String)
    /// A `file:` URL's file exists and could not be read.
    case fileUnreadable(url: String, reason: String)
    /// A `data:` URL that is not `data:[type][;base64],payload`, or whose payload does not decode.
    case malformedDataURL(reason: String)
    /// The source, or a redirect's target, is one the loader's policy keeps out
    /// (``AddressPolicy``): nothing was sent to it.
    case refused(SourceRefusal, url: String)

    /// Which timeout ran out.
    public enum Timeout: String, Hashable, Sendable {
        /// Establishing the connection took too long.
        case connect
        /// The whole transfer took too long.
        case transfer
        /// No bytes arrived for too long.
        case stall
    }

    public var description: String {
        switch self {
        case let .unsupportedScheme(scheme, url): "unsupported URL scheme '\(scheme)' in \(url): no loader fetches it"
        case let .httpStatus(status, url): "HTTP \(status) for \(url)"
        case let .connectionFailed(url, reason): "could not connect to \(url): \(reason)"
        case let .timedOut(kind, url): "\(kind.rawValue) timeout for \(url)"
        case let .responseTooLarge(limit, url): "response from \(url) is larger than the limit of \(limit) bytes"
        case let .truncated(received, expected, url): "response from \(url) ended after \(received) of \(expected) bytes"
        case let .tooManyRedirects(limit, url): "more than \(limit) redirects from \(url)"
        case let .insecureRedirect(from, to): "refused redirect from \(from) to insecure \(to)"
        case let .untrustedServer(url, reason): "could not verify the server of \(url): \(reason)"
        case let .transport(message, url): "transfer of \(url) failed: \(message)"
        case let .refused(reason, url): "refused \(url): \(reason)"
        case let .fileNotFound(url): "no file at \(url)"
        case let .fileUnreadable(url, reason): "could not read \(url): \(reason)"
        case let .malformedDataURL(reason): "malformed data: URL: \(reason)"
        }
    }
}
