import Hummingbird
import Metrics
import OspreyDomain

/// Records every request through swift-metrics: `osprey_requests_total{status}`,
/// `osprey_bytes_out_total`, `osprey_request_duration_seconds` and
/// `osprey_requests_in_flight`. The app chooses the backend (`MetricsSystem.bootstrap`).
public struct ImageMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let inFlight = Locked(0)
    private let inFlightGauge = Gauge(label: "osprey_requests_in_flight")
    private let bytesOut = Counter(label: "osprey_bytes_out_total")
    private let latency = Metrics.Timer(label: "osprey_request_duration_seconds")

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
            finish(status: (error as? any HTTPResponseError)?.status.code ?? 500, bytes: 0, since: started)
            throw error
        }
        finish(status: response.status.code, bytes: response.body.contentLength ?? 0, since: started)
        return response
    }

    private func finish(status: Int, bytes: Int, since started: ContinuousClock.Instant) {
        Counter(label: "osprey_requests_total", dimensions: [("status", String(status))]).increment()
        bytesOut.increment(by: bytes)
        latency.record(duration: .now - started)
        inFlightGauge.record(inFlight.withLock { count in
            count -= 1
            return count
        })
    }
}
