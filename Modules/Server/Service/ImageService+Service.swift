import ServiceLifecycle

/// The service runs beside the server that answers with it (`ServiceGroup`, or an
/// application's `services`): while it runs, its memory monitor records and gives back
/// memory; on graceful shutdown, after the server's last request, its disk cache is closed.
extension ImageService: Service {
    public func run() async throws {
        try await MemoryMonitor(service: self).run()
        close()
    }
}
