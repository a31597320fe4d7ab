import Hummingbird
import OspreyDomain

/// Why a request got no image, in the few classes a client is told of. The service throws
/// it; `ImageAnswerMiddleware` logs its detail under the request's id and renders it, the
/// class's fixed text and status — the detail itself only with development errors on, as
/// imgproxy's development mode. Otherwise any fetch the policy misses would become a read
/// or a port scan.
public struct ServerError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The classes, each with its status and text.
    public enum Kind: String, Sendable, CaseIterable {
        case invalidURL, forbidden, notFound, refused, notAnImage, tooLarge, timedOut, upstreamFailed, internalError

        /// The one place a class's status is written.
        public var status: HTTPResponse.Status {
            switch self {
            case .invalidURL: .badRequest
            case .forbidden, .refused: .forbidden
            case .notFound: .notFound
            case .notAnImage, .tooLarge: .unprocessableContent
            case .timedOut: .gatewayTimeout
            case .upstreamFailed: .badGateway
            case .internalError: .internalServerError
            }
        }

        /// The text every client sees.
        public var text: String {
            switch self {
            case .invalidURL: "invalid URL"
            case .forbidden: "forbidden"
            case .notFound: "not found"
            case .refused: "source refused"
            case .notAnImage: "not an image"
            case .tooLarge: "image too large"
            case .timedOut: "timed out"
            case .upstreamFailed: "upstream failed"
            case .internalError: "internal error"
            }
        }
    }

    /// The class.
    public let kind: Kind
    /// What happened, for the log (and development errors).
    public let detail: String

    /// An error of `kind`; `detail` says what happened.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var status: HTTPResponse.Status { kind.status }
    public var headers: HTTPFields { [.contentType: "text/plain; charset=utf-8"] }
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
            case .fileNotFound, .httpStatus(404, _), .httpStatus(410, _): self.init(.notFound, detail)
            case .timedOut: self.init(.timedOut, detail)
            case .responseTooLarge: self.init(.tooLarge, detail)
            default: self.init(.upstreamFailed, detail)
            }
        case .decodingFailed(let decoding)?:
            switch decoding {
            case .tooManyPixels, .tooManyBytes, .tooManyFrames, .animationTooLarge: self.init(.tooLarge, detail)
            default: self.init(.notAnImage, detail)
            }
        case .processingFailed?: self.init(.notAnImage, detail)
        case .resultTooLarge?: self.init(.tooLarge, detail)
        case .encodingFailed?: self.init(.internalError, detail)
        default: self.init(error is CancellationError ? .timedOut : .internalError, detail)
        }
    }

    /// A URL that does not parse, or is not signed as the server requires.
    init(_ error: ImgproxyError) {
        switch error {
        case .malformed, .unsupported: self.init(.invalidURL, error.description)
        case .badSignature, .unsigned: self.init(.forbidden, error.description)
        case .expired: self.init(.notFound, error.description)
        }
    }

    /// The refusal a pipeline failure carries, if it is one.
    static func refusal(in error: any Error) -> SourceRefusal? {
        guard case .dataLoadingFailed(.refused(let reason, _))? = error as? ImagePipeline.Error else { return nil }
        return reason
    }
}
