import Hummingbird
import Metrics
import OspreyDomain

/// Records every request through swift-metrics under imgproxy's names, so that its dashboards
/// read them: `requests_total`, `status_codes_total{status}`, `request_duration_seconds` and
/// `requests_in_progress`, and Osprey's `bytes_out_total`; a ``ServerError`` thrown through
/// it is counted in `errors_total{type}`. The app chooses the backend
/// (`MetricsSystem.bootstrap`) and any namespace the names are given.
public struct ImageMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let inFlight = Locked(0)
    private let inFlightGauge = Gauge(label: "requests_in_progress")
    private let bytesOut = Counter(label: "bytes_out_total")
    private let requests = Counter(label: "requests_total")
    private let latency = Metrics.Timer(label: "request_duration_seconds")

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        inFlightGauge.record(inFlight.withLock { count in
            count += 1
            return count
        })
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            if let error = error as? ServerError { Counter(label: "errors_total", dimensions: [("type", error.kind.metricType)]).increment() }
            finish(status: (error as? any HTTPResponseError)?.status.code ?? 500, bytes: 0, since: started)
            throw error
        }
        finish(status: response.status.code, bytes: response.body.contentLength ?? 0, since: started)
        return response
    }

    private func finish(status: Int, bytes: Int, since started: ContinuousClock.Instant) {
        requests.increment()
        Counter(label: "status_codes_total", dimensions: [("status", String(status))]).increment()
        bytesOut.increment(by: bytes)
        latency.record(duration: .now - started)
        inFlightGauge.record(inFlight.withLock { count in
            count -= 1
            return count
        })
    }
}
