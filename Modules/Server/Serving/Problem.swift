import Hummingbird
import OspreyDomain

/// Why a request got no image, in the few classes a client is told of. The client sees a
/// fixed short text and the request's id (`X-Request-ID`); the detail — what the server
/// fetched, the source's first bytes, libcurl's message with an address and port — goes to
/// the log under that id, and to the client only with development errors on, as imgproxy's
/// development mode. Otherwise any fetch the policy misses would become a read or a port scan.
package struct Problem: Error, Sendable {
    package enum Kind: String, Sendable {
        case invalidURL, forbidden, notFound, refused, notAnImage, tooLarge, timedOut, upstreamFailed, internalError

        var status: HTTPResponse.Status {
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
        var text: String {
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

    package let kind: Kind
    /// What happened, for the log (and development errors).
    package let detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The class of a pipeline failure.
    package init(_ error: any Error) {
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
        default: self.init(error is CancellationError ? .timedOut : .internalError, detail)
        }
    }

    /// The answer: the class's text, with the detail when `development` is on.
    package func response(development: Bool) -> Response {
        Answers.text(kind.status, development ? "\(kind.text): \(detail)" : kind.text)
    }
}

extension Problem {
    /// A URL that does not parse, or is not signed as the server requires.
    package init(_ error: ImgproxyError) {
        switch error {
        case .malformed, .unsupported: self.init(.invalidURL, error.description)
        case .badSignature, .unsigned: self.init(.forbidden, error.description)
        case .expired: self.init(.notFound, error.description)
        }
    }
}
