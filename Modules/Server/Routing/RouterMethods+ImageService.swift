import Hummingbird

extension RouterMethods {
    /// Serves `service`'s imgproxy URLs under `prefix`: `GET {prefix}/{signature}/{options…}/{source}`
    /// and its image info, `GET {prefix}/info/{signature}/{info options…}/{source}`;
    /// `HEAD` and CORS preflight `OPTIONS` on any path under it answer `200` at once, as
    /// imgproxy's do. An empty prefix serves them at the root, as imgproxy does.
    ///
    /// Outermost, one middleware gives every answer its request id and headers and renders
    /// every error (`ImageAnswerMiddleware`); inside it ``ImageMetricsMiddleware`` counts
    /// requests and errors, and, given `maxQueue`, ``AdmissionMiddleware`` refuses what is over it.
    ///
    /// ```swift
    /// router.addImageRoutes(service, at: "/images", maxQueue: 64)
    /// ```
    @discardableResult
    public func addImageRoutes(_ service: ImageService, at prefix: String = "", maxQueue: Int? = nil) -> Self {
        let mount = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        let group = group()
            .add(middleware: ImageAnswerMiddleware<Context>(corsOrigin: service.configuration.corsOrigin,
                                                            developmentErrors: service.configuration.developmentErrors))
            .add(middleware: ImageMetricsMiddleware<Context>())
        let routes = maxQueue.map { group.add(middleware: AdmissionMiddleware<Context>(limit: $0)) } ?? group
        routes
            .get(RouterPath(mount + "/info/**")) { request, _ in
                // imgproxy Pro's image info: `/info/{signature}/{info options…}/{source}`.
                let path = request.uri.path
                let rest = String(path.dropFirst(mount.count + "/info".count))
                let asked = try ImgproxyInfoRequest(path: rest, headers: request.headers, authority: request.head.authority, service: service)
                return try await service.info(asked).response(conditions: Conditions(request.headers))
            }
            .get(RouterPath(mount + "/**")) { request, context in
                // The path as received, percent-encoding kept: the signature covers it so.
                let path = request.uri.path
                let asked = try ImgproxyRequest(path: path.hasPrefix(mount) ? String(path.dropFirst(mount.count)) : path, headers: request.headers,
                                                authority: request.head.authority, service: service)
                return try await service.answer(asked, logger: context.logger).response(conditions: Conditions(request.headers))
            }
            .head(RouterPath(mount + "/**")) { _, _ in Response(status: .ok) }
            .on(RouterPath(mount + "/**"), method: .options) { _, _ in Response(status: .ok) }
        return self
    }
}
