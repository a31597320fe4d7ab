import Hummingbird
import OspreyDomain

/// Bounds the requests served or waiting at once: past the limit a request is refused with a
/// ``ServerError`` the answer middleware renders as every other (`429`, imgproxy's "Too many
/// requests", with `Retry-After: 1`) at once, rather than left to pile up in memory.
public struct AdmissionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The most requests inside at once.
    public let limit: Int
    private let inside = Locked(0)

    /// Admits at most `limit` requests at once.
    public init(limit: Int) {
        self.limit = limit
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let admitted = inside.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw ServerError(.tooManyRequests, "\(limit) requests inside") }
        defer { inside.withLock { $0 -= 1 } }
        return try await next(request, context)
    }
}
