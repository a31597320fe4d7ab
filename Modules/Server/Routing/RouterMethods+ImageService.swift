import Hummingbird

extension RouterMethods {
    /// Serves `service`'s imgproxy URLs under `prefix`: `GET {prefix}/{signature}/{options…}/{source}`,
    /// every answer (errors too) with its request id and headers (`ImageAnswerMiddleware`);
    /// `HEAD` and CORS preflight `OPTIONS` on any path under it answer `200` at once, as
    /// imgproxy's do.
    /// An empty prefix serves them at the root, as imgproxy does; give a router group of its
    /// own to add ``AdmissionMiddleware`` and ``ImageMetricsMiddleware`` to these routes alone.
    ///
    /// ```swift
    /// router.group()
    ///     .add(middleware: ImageMetricsMiddleware())
    ///     .add(middleware: AdmissionMiddleware(limit: 64))
    ///     .addImageRoutes(service)
    /// ```
    @discardableResult
    public func addImageRoutes(_ service: ImageService, at prefix: String = "") -> Self {
        let mount = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        group()
            .add(middleware: ImageAnswerMiddleware<Context>(corsOrigin: service.configuration.corsOrigin,
                                                            developmentErrors: service.configuration.developmentErrors))
            .get(RouterPath(mount + "/**")) { request, _ in
                // The path as received, percent-encoding kept: the signature covers it so.
                let path = request.uri.path
                return try await service.respond(to: request, path: path.hasPrefix(mount) ? String(path.dropFirst(mount.count)) : path)
            }
            .head(RouterPath(mount + "/**")) { _, _ in Response(status: .ok) }
            .on(RouterPath(mount + "/**"), method: .options) { _, _ in Response(status: .ok) }
        return self
    }
}
