import Foundation
import Hummingbird
import HummingbirdCore
import ServiceLifecycle

/// The application `configuration` describes: the image routes of an ``ImageService`` built
/// from it (with ``ImageMetricsMiddleware`` and ``AdmissionMiddleware``), the health check,
/// the app's own routes, and metrics on their own address. When it stops, after the last
/// request, the disk cache is closed.
///
/// ```swift
/// let app = try buildApplication(ServerConfiguration(service: .init(signingKeys: keys, sources: policy)))
/// try await app.runService()
/// ```
/// - Throws: ``ServerConfigurationError``.
public func buildApplication(_ configuration: ServerConfiguration) throws(ServerConfigurationError) -> some ApplicationProtocol {
    let service = try ImageService(configuration: configuration.service, logger: configuration.logger)
    return try buildApplication(configuration, service: service, closingService: true)
}

/// The application `configuration` describes, over `service` (built from
/// `configuration.service` by the caller, who keeps it to read its pipeline or to close it):
/// the same routes, middleware and metrics as ``buildApplication(_:)``. The service outlives
/// the application and is not closed with it.
/// - Throws: ``ServerConfigurationError``.
public func buildApplication(_ configuration: ServerConfiguration, service: ImageService) throws(ServerConfigurationError) -> some ApplicationProtocol {
    try buildApplication(configuration, service: service, closingService: false)
}

private func buildApplication(_ configuration: ServerConfiguration, service: ImageService,
                              closingService: Bool) throws(ServerConfigurationError) -> Application<RouterResponder<BasicRequestContext>> {
    try configuration.validate()
    let router = Router(context: BasicRequestContext.self)
    for path in Set(["/health", configuration.healthPath].compactMap { $0 }) {
        router.get(RouterPath(configuration.pathPrefix + path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain", .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
    }
    configuration.routes(router)
    router.group()
        .add(middleware: ImageMetricsMiddleware<BasicRequestContext>())
        .add(middleware: AdmissionMiddleware<BasicRequestContext>(limit: configuration.maxQueue))
        .addImageRoutes(service, at: configuration.pathPrefix)
    var services: [any Service] = closingService ? [CacheCloser(service: service)] : []
    services.append(MemoryMonitor(service: service))
    if let metrics = configuration.metrics {
        let metricsRouter = Router(context: BasicRequestContext.self)
        metricsRouter.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
        services.append(Application(router: metricsRouter, configuration: .init(address: .hostname(metrics.host, port: metrics.port)),
                                    logger: configuration.logger))
    }
    // Hummingbird's idle timer runs from the last whole request part read or the last answer
    // written, so it closes idle keep-alive connections and heads that trickle in alike.
    let onServerRunning = configuration.onServerRunning
    return Application(router: router, server: .http1(configuration: .init(idleTimeout: .nanoseconds(Int64(configuration.idleTimeout / .nanoseconds(1))))),
                       configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
                       services: services,
                       onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
                       logger: configuration.logger)
}

/// Closes the service's disk cache once the server has stopped: the application's own
/// services are shut down after its HTTP server, in reverse order.
struct CacheCloser: Service {
    let service: ImageService

    func run() async throws {
        try? await gracefulShutdown()
        service.close()
    }
}
