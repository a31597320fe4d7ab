import Metrics
import OspreyDomain
import Prometheus

/// What swift-metrics records (the service's and its middleware's counters), in Prometheus'
/// text format, for `/metrics`, under imgproxy's names.
struct ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry

    /// The process's registry: swift-metrics takes one backend per process, so the first
    /// server that serves metrics makes it and later ones share it.
    private static let shared = Locked<ServerMetrics?>(nil)

    /// The process's registry, made on first use; every name is prefixed `{namespace}_` when
    /// one is given.
    static func bootstrap(namespace: String?) -> ServerMetrics {
        shared.withLock { metrics in
            if let metrics { return metrics }
            let made = make(namespace: namespace)
            metrics = made
            return made
        }
    }

    private static func make(namespace: String?) -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                                                   .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
                                                   .seconds(2.5), .seconds(5), .seconds(10)]
        if let namespace, !namespace.isEmpty {
            factory.nameAndLabelSanitizer = { name, dimensions in (namespace + "_" + name, dimensions) }
        }
        MetricsSystem.bootstrap(factory)
        return ServerMetrics(registry: registry)
    }

    /// The registry in Prometheus' text format.
    func text() -> String { registry.emitToString() }
}
