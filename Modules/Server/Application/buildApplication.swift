import Foundation
import Hummingbird
import HummingbirdCore
import Osprey
import OspreyRedisCache
import ServiceLifecycle

/// The application `configuration` describes, checked whole first (``ServerConfiguration/validate()``):
/// the image routes of an ``ImageService`` built from it (which runs as one of the
/// application's services: its memory monitor while serving, its caches closed after the last
/// request), admission and metrics, the health check, the gallery and the app's own routes,
/// and `/metrics` on their own address. Here, and nowhere before, files are opened, images
/// decoded and the metrics backend made.
///
/// ```swift
/// let app = try buildApplication(ServerConfiguration(service: .init(signingKeys: keys, sources: policy)))
/// try await app.runService()
/// ```
/// - Throws: ``ServerConfigurationError``.
public func buildApplication(_ configuration: ServerConfiguration) throws(ServerConfigurationError) -> some ApplicationProtocol {
    try configuration.validate()
    var configuration = configuration
    var gallery: Gallery?
    if let folder = configuration.gallery {
        let made = try Gallery(folder: folder, host: configuration.host, port: configuration.port, keys: configuration.service.signingKeys,
                               codec: configuration.service.pipelineConfiguration.codec)
        let sources = configuration.service.sources
        configuration.service.sources = SourcePolicy(allowedPrefixes: sources.allowedPrefixes + [made.originPrefix],
                                                     allowing: sources.addressPolicy.allowedCategories)
        gallery = made
    }
    if let url = configuration.sharedCache {
        do {
            var redis = try RedisDataCache.Configuration(url: url)
            redis.certificateAuthorities = configuration.sharedCacheAuthorities
            configuration.service.osprey.sharedCache = RedisDataCache(configuration: redis, logger: configuration.logger)
        } catch {
            throw .unusable("the shared cache: \(error)")
        }
    }
    let service = try ImageService(configuration: configuration.service)
    let metrics = configuration.metrics.map { ($0, ServerMetrics.bootstrap(namespace: configuration.metricsNamespace)) }
    let routes = configuration.routes
    configuration.routes = { [gallery] router in
        gallery?.addRoutes(to: router)
        routes(router)
    }
    var services: [any Service] = [service]
    if let (endpoint, registry) = metrics {
        let router = Router(context: BasicRequestContext.self)
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: registry.text())))
        }
        services.append(Application(router: router, configuration: .init(address: .hostname(endpoint.host, port: endpoint.port)),
                                    logger: configuration.logger))
    }
    return application(configuration, service: service, services: services)
}

/// The application over `service`, which the caller built from `configuration.service` and
/// keeps across applications (as a restarted server would find its caches): the same routes
/// and middleware, the memory monitor, and the service left open when it stops.
package func buildApplication(_ configuration: ServerConfiguration, service: ImageService) throws(ServerConfigurationError) -> some ApplicationProtocol {
    try configuration.validate()
    return application(configuration, service: service, services: [MemoryMonitor(service: service)])
}

private func application(_ configuration: ServerConfiguration, service: ImageService,
                         services: [any Service]) -> Application<RouterResponder<BasicRequestContext>> {
    let router = Router(context: BasicRequestContext.self)
    for path in Set(["/health", configuration.healthPath].compactMap { $0 }) {
        router.get(RouterPath(configuration.pathPrefix + path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain", .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
    }
    configuration.routes(router)
    router.addImageRoutes(service, at: configuration.pathPrefix, maxQueue: configuration.maxQueue)
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
