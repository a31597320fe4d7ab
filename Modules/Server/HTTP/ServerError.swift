import Hummingbird
import Metrics
import OspreyDomain

/// Why a request got no image, in imgproxy's classes, each with imgproxy's status and public
/// text. The service throws it; `ImageAnswerMiddleware` logs its detail under the request's
/// id and renders it: the class's text — the detail too only with development errors on, as
/// imgproxy's development mode. Otherwise any fetch the policy misses would become a read or
/// a port scan.
public struct ServerError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The classes, each with its status and text.
    public enum Kind: String, Sendable, CaseIterable {
        /// A path or option that does not parse, or an expired URL.
        case invalidURL
        /// A format the URL names that no encoder writes.
        case unwritableFormat
        /// Security options in a URL where the server does not allow them.
        case forbiddenOption
        /// A bad or missing signature, or a missing secret.
        case forbidden
        /// A source the policy keeps out.
        case refused
        /// A source that could not be fetched or read: missing, refused by its origin.
        case unreachable
        /// An origin that failed (5xx).
        case upstreamFailed
        /// A download past its deadline.
        case sourceTimedOut
        /// A source that is not an image the server decodes.
        case notAnImage
        /// A source or result past the server's limits.
        case tooLarge
        /// A request past its deadline.
        case timedOut
        /// A request past the queue's bound.
        case tooManyRequests
        /// A request that found no room in the memory budget within its wait: to be tried again.
        case busy
        case internalError

        /// The one place a class's status is written: imgproxy's.
        public var status: HTTPResponse.Status {
            switch self {
            case .invalidURL, .refused, .unreachable: .notFound
            case .unwritableFormat, .notAnImage, .tooLarge: .unprocessableContent
            case .forbidden, .forbiddenOption: .forbidden
            case .upstreamFailed: .badGateway
            case .sourceTimedOut: .gatewayTimeout
            case .timedOut, .busy: .serviceUnavailable
            case .tooManyRequests: .tooManyRequests
            case .internalError: .internalServerError
            }
        }

        /// The `type` imgproxy's `errors_total` counts the class under.
        public var metricType: String {
            switch self {
            case .invalidURL, .unwritableFormat: "path_parsing"
            case .forbidden, .forbiddenOption, .refused: "security"
            case .unreachable, .upstreamFailed, .sourceTimedOut: "download"
            case .notAnImage, .tooLarge, .internalError: "processing"
            case .timedOut: "timeout"
            case .tooManyRequests, .busy: "queue"
            }
        }

        /// The text every client sees: imgproxy's.
        public var text: String {
            switch self {
            case .invalidURL, .unwritableFormat, .forbiddenOption: "Invalid URL"
            case .forbidden: "Forbidden"
            case .refused: "Invalid source URL"
            case .unreachable, .upstreamFailed, .sourceTimedOut: "Source image is unreachable"
            case .notAnImage, .tooLarge: "Invalid source image"
            case .timedOut: "Timeout"
            case .tooManyRequests: "Too many requests"
            case .busy: "Service unavailable"
            case .internalError: "Internal error"
            }
        }
    }

    /// The class.
    public let kind: Kind
    /// What happened, for the log (and development errors).
    public let detail: String
    /// The class's status, or the origin's own 4xx for a source it refused, as imgproxy
    /// passes it on.
    public let status: HTTPResponse.Status

    /// An error of `kind`; `detail` says what happened.
    public init(_ kind: Kind, _ detail: String) {
        self.init(kind, detail, status: kind.status)
    }

    private init(_ kind: Kind, _ detail: String, status: HTTPResponse.Status) {
        self.kind = kind
        self.detail = detail
        self.status = status
    }

    /// The text's type; `Retry-After` when the request may be tried again soon.
    public var headers: HTTPFields {
        [.busy, .tooManyRequests].contains(kind) ? [.contentType: "text/plain; charset=utf-8", .retryAfter: "1"] : [.contentType: "text/plain; charset=utf-8"]
    }
    public var description: String { "\(kind.text): \(detail)" }

    /// The class's text alone; `ImageAnswerMiddleware` adds the detail in development.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response(showingDetail: false)
    }

    /// The answer: the class's text, with the detail when `showingDetail`.
    func response(showingDetail: Bool) -> Response {
        Response(status: status, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(string: (showingDetail ? "\(kind.text): \(detail)" : kind.text) + "\n")))
    }
}

extension ServerError {
    /// The class of a pipeline failure.
    init(_ error: any Error) {
        let detail = "\(error)"
        switch error as? ImagePipeline.Error {
        case .dataLoadingFailed(let loading)?:
            switch loading {
            case .refused: self.init(.refused, detail)
            case .httpStatus(let code, _) where (400..<500).contains(code): self.init(.unreachable, detail, status: .init(code: code))
            case .httpStatus(let code, _) where code >= 500: self.init(.upstreamFailed, detail)
            case .timedOut: self.init(.sourceTimedOut, detail)
            case .responseTooLarge: self.init(.tooLarge, detail)
            default: self.init(.unreachable, detail)
            }
        case .decodingFailed(let decoding)?:
            switch decoding {
            case .tooManyPixels, .tooManyBytes, .tooManyFrames, .animationTooLarge: self.init(.tooLarge, detail)
            default: self.init(.notAnImage, detail)
            }
        case .processingFailed?: self.init(.notAnImage, detail)
        case .resultTooLarge?, .memoryBudget(.overBudget)?: self.init(.tooLarge, detail)
        case .memoryBudget(.waitedTooLong)?: self.init(.busy, detail)
        case .encodingFailed?: self.init(.internalError, detail)
        default: self.init(error is CancellationError ? .timedOut : .internalError, detail)
        }
    }

    /// A URL that does not parse, or is not signed as the server requires.
    init(_ error: ImgproxyError) {
        switch error {
        case .malformed, .unsupported, .expired: self.init(.invalidURL, error.description)
        case .badSignature, .unsigned: self.init(.forbidden, error.description)
        case .securityOption: self.init(.forbiddenOption, error.description)
        case .unwritableFormat: self.init(.unwritableFormat, error.description)
        }
    }

    /// The refusal a pipeline failure carries, if it is one.
    static func refusal(in error: any Error) -> SourceRefusal? {
        guard case .dataLoadingFailed(.refused(let reason, _))? = error as? ImagePipeline.Error else { return nil }
        return reason
    }
}
