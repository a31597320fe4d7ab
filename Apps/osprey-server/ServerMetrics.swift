import Metrics
import Osprey
import Prometheus

/// What `/metrics` reports, recorded through swift-metrics into a Prometheus registry.
struct ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let inFlight = Gauge(label: "osprey_requests_in_flight")
    private let bytesOut = Counter(label: "osprey_bytes_out_total")
    private let refused = Counter(label: "osprey_requests_refused_total")
    private let latency = Metrics.Timer(label: "osprey_request_duration_seconds")

    /// Makes the registry swift-metrics records into, for the whole process.
    static func bootstrap() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                                   .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                                                   .seconds(2.5), .seconds(5), .seconds(10)]
        MetricsSystem.bootstrap(factory)
        return ServerMetrics(registry: registry)
    }

    func started(inFlight count: Int) { inFlight.record(count) }

    /// One request answered with `status`, `bytes` of body, after `duration`.
    func answered(status: Int, bytes: Int, duration: Duration, inFlight count: Int) {
        Counter(label: "osprey_requests_total", dimensions: [("status", String(status))]).increment()
        bytesOut.increment(by: bytes)
        latency.record(duration: duration)
        inFlight.record(count)
    }

    /// A request turned away because the queue was full.
    func refusedForLoad() { refused.increment() }

    /// A source the policy refused, by reason (`SourceRefusal`'s raw value).
    func refusedSource(_ reason: SourceRefusal) {
        Counter(label: "osprey_source_refusals_total", dimensions: [("reason", reason.rawValue)]).increment()
    }

    /// Where an image came from: `network` counts a source fetch.
    func served(from tier: ImageResponse.Tier) {
        Counter(label: "osprey_image_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
        if tier == .network { Counter(label: "osprey_source_fetches_total").increment() }
    }

    /// The registry in Prometheus' text format.
    func text() -> String { registry.emitToString() }
}
