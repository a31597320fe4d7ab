import HTTPTypes
import Hummingbird
import Logging
import OspreyDomain

/// What every answer of the image routes shares, in one place: the request's id
/// (`X-Request-ID`: the client's own when it sent a plain one, else a new one), carried by
/// `context.logger`; `X-Content-Type-Options: nosniff` and `Content-Security-Policy:
/// script-src 'none'`, so no answer is read as anything but its type nor runs a script; the
/// CORS origin; and errors — a ``ServerError`` is logged with its detail under the id and
/// rendered with its class's text (its detail too with development errors on).
struct ImageAnswerMiddleware<Context: RequestContext>: RouterMiddleware {
    let corsOrigin: String?
    let developmentErrors: Bool

    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = Self.requestID(from: request.headers[Self.requestIDField])
        var context = context
        context.logger[metadataKey: "request-id"] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as ServerError {
            context.logger.notice("request failed", metadata: ["class": "\(error.kind.rawValue)", "detail": "\(error.detail)"])
            response = error.response(showingDetail: developmentErrors)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[Self.requestIDField] = id
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.contentSecurityPolicy] = "script-src 'none'"
        if let corsOrigin {
            response.headers[.accessControlAllowOrigin] = corsOrigin
            response.headers[.accessControlAllowMethods] = "GET, OPTIONS"
        }
        return response
    }

    /// The client's id when it is 1–64 letters, digits, `-` or `_` (as imgproxy takes it), else a new one.
    static func requestID(from header: String?) -> String {
        if let header, (1...64).contains(header.utf8.count),
           header.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            return header
        }
        return (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }
}
