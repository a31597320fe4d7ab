import Metrics
import Osprey
import ServiceLifecycle

/// Says where the server's memory is and gives back what the allocator holds free: every
/// half second it records the process's resident memory (RSS, as the kernel and a container's
/// limit count it), each memory cache's bytes and the budget's figures, and once the service
/// has been idle for a second after serving, it trims the allocator (``MemoryTuning``).
struct MemoryMonitor: Service {
    let service: ImageService
    var interval: Duration = .milliseconds(500)

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if service.activity.becameIdle(for: .seconds(1)) { MemoryTuning.returnFreeMemoryToTheSystem() }
                record()
                try await Task.sleep(for: interval)
            }
        }
    }

    private func record() {
        let pipeline = service.pipeline.configuration
        if let resident = ProcessMemory.residentBytes() { Gauge(label: "process_resident_memory_bytes").record(resident) }
        Gauge(label: "memory_cache_bytes", dimensions: [("cache", "images")]).record(pipeline.imageCache?.usage.cost ?? 0)
        Gauge(label: "memory_cache_bytes", dimensions: [("cache", "answers")])
            .record((pipeline.memoryDataCache as? any MemoryTrimming)?.cost ?? 0)
        guard let usage = pipeline.memoryBudget?.usage else { return }
        Gauge(label: "memory_budget_bytes").record(usage.limit)
        Gauge(label: "memory_budget_overhead_bytes").record(usage.overhead)
        Gauge(label: "memory_budget_in_flight_bytes").record(usage.inFlight)
        Gauge(label: "memory_budget_cached_bytes").record(usage.cached)
        Gauge(label: "memory_budget_waiting").record(usage.waiting)
    }
}
