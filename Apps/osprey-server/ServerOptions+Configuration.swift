import ArgumentParser
import Foundation
import Osprey
import OspreyPrograms
import OspreyServer

extension ServerOptions {
    /// The caches' defaults: the memory cache holds photos' reduced decodes (answers are kept
    /// apart, `ImageService.Configuration.answerMemoryLimit`).
    static let cacheDefaults = CacheFlags.Defaults(folderName: "osprey-server", diskLimit: 2_048_000_000, memoryLimit: 32_000_000)

    /// The server these flags and variables describe: Osprey's defaults, then what an imgproxy
    /// environment says, then the `OSPREY_` variables and the flags. The service checks it
    /// whole when built.
    /// - Returns: The server, and what start-up should tell the operator once.
    func configuration(_ imgproxy: ImgproxyEnvironment = ImgproxyEnvironment()) throws -> (ServerConfiguration, notices: [String]) {
        typealias Setting = ProgramEnvironment
        try refuseRenamedSpellings()
        let service = ImageService.Configuration(signingKeys: .none, allowsUnsigned: false, sources: SourcePolicy(),
                                                 osprey: try cache.configuration(Self.cacheDefaults))
        var server = ServerConfiguration(service: service)
        let notices: [String]
        do {
            notices = try imgproxy.apply(to: &server)
        } catch {
            throw ValidationError(error.description)
        }
        server.host = try Setting.value(host, "HOST") ?? server.host
        server.port = try Setting.value(port, "PORT") ?? server.port
        try configureSigning(&server.service)
        let gallery = try Setting.value(gallery, "GALLERY").map {
            try Gallery(folder: URL(fileURLWithPath: $0), host: server.host, port: server.port, keys: server.service.signingKeys)
        }
        try configureSources(&server.service, gallery: gallery)
        if let workers = try Setting.value(workers, "WORKERS") { server.service.osprey.maxConcurrentDecodes = workers }
        try configureLimits(&server.service)
        try configureAnswers(&server.service)
        server.idleTimeout = try Setting.value(idleTimeout, "IDLE_TIMEOUT").map(Self.duration) ?? server.idleTimeout
        server.maxConnections = try Setting.value(maxConnections, "MAX_CONNECTIONS") ?? server.maxConnections
        server.maxQueue = try Setting.value(maxQueue, "MAX_QUEUE") ?? server.maxQueue
        server.pathPrefix = try Setting.value(pathPrefix, "PATH_PREFIX") ?? server.pathPrefix
        server.healthPath = try Setting.value(healthCheckPath, "HEALTH_CHECK_PATH") ?? server.healthPath
        let imgproxyMetrics: (host: String, port: Int)?
        do {
            imgproxyMetrics = try imgproxy.prometheusBind()
        } catch {
            throw ValidationError(error.description)
        }
        if let bind = try Setting.value(metricsBind, "METRICS_BIND").map(Self.address) ?? imgproxyMetrics {
            let metrics = ServerMetrics.bootstrap(namespace: imgproxy.prometheusNamespace)
            server.metrics = .init(host: bind.host, port: bind.port, render: { metrics.text() })
        }
        if let gallery { server.routes = { gallery.addRoutes(to: $0) } }
        let (host, announced) = (server.host, server.metrics.map { "osprey-server: metrics on http://\($0.host):\($0.port)/metrics\n" } ?? "")
        server.onServerRunning = { port in
            // Unbuffered, so whoever reads the log (a supervisor, a test) sees it at once.
            FileHandle.standardOutput.write(Data("osprey-server: listening on http://\(host):\(port)/\n\(announced)".utf8))
        }
        return (server, notices)
    }

    /// Spellings whose meaning changed: each stops the start, naming the new one, rather
    /// than be read with its new meaning (the source allow-list read as a CORS origin, say).
    private func refuseRenamedSpellings() throws {
        typealias Setting = ProgramEnvironment
        if try Setting.value(corsOrigin, "CORS_ORIGIN") != nil {
            throw ValidationError("--cors-origin (OSPREY_CORS_ORIGIN) is now --allow-origin (OSPREY_ALLOW_ORIGIN), as imgproxy names it")
        }
        if Setting.flag(avif, "AVIF") || Setting.flag(jxl, "JXL") {
            throw ValidationError("--avif and --jxl (OSPREY_AVIF, OSPREY_JXL) are now --auto-format avif and --auto-format jxl (OSPREY_AUTO_FORMAT)")
        }
        // A CORS origin is one scheme, host and port; a list or a path is the old allow-list.
        if let origin = try Setting.value(allowOrigin, "ALLOW_ORIGIN"), origin != "*",
           origin.contains(",") || URL(string: origin).map({ !$0.path.isEmpty || $0.host == nil }) ?? true {
            throw ValidationError("--allow-origin \(origin): --allow-origin (OSPREY_ALLOW_ORIGIN) is now the CORS origin, as imgproxy's "
                                  + "IMGPROXY_ALLOW_ORIGIN; the source allow-list is --allowed-source (OSPREY_ALLOWED_SOURCES)")
        }
    }

    /// Keys, salts, the signature's size and unsigned URLs.
    private func configureSigning(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        let keys = Setting.list(key, "KEY"), salts = Setting.list(salt, "SALT")
        let size = try Setting.value(signatureSize, "SIGNATURE_SIZE")
        do {
            if !keys.isEmpty || !salts.isEmpty {
                service.signingKeys = try SigningKeys(hexKeys: keys, hexSalts: salts, signatureSize: size ?? service.signingKeys.signatureSize)
                service.allowsUnsigned = false
            } else if let size {
                service.signingKeys = try service.signingKeys.withSignatureSize(size)
            }
        } catch {
            throw ValidationError(error.description)
        }
        if Setting.flag(allowUnsigned, "ALLOW_UNSIGNED") { service.allowsUnsigned = true }
        service.secret = try Setting.value(secret, "SECRET") ?? service.secret
    }

    /// The allow-list, the address categories, the local root, the S3 store and the fallback image.
    private func configureSources(_ service: inout ImageService.Configuration, gallery: Gallery?) throws {
        typealias Setting = ProgramEnvironment
        var categories = service.sources.addressPolicy.allowedCategories
        for (on, category) in [(Setting.flag(allowLoopbackSources, "ALLOW_LOOPBACK_SOURCES"), IPAddress.Category.loopback),
                               (Setting.flag(allowPrivateSources, "ALLOW_PRIVATE_SOURCES"), .private),
                               (Setting.flag(allowLinkLocalSources, "ALLOW_LINK_LOCAL_SOURCES"), .linkLocal)] where on {
            categories.insert(category)
        }
        let listed = Setting.list(allowedSource, "ALLOWED_SOURCES")
        service.sources = SourcePolicy(allowedPrefixes: (listed.isEmpty ? service.sources.allowedPrefixes : listed) + (gallery.map { [$0.originPrefix] } ?? []),
                                       allowing: categories)
        service.localRoot = try Setting.value(localRoot, "LOCAL_ROOT").map { URL(fileURLWithPath: $0, isDirectory: true) } ?? service.localRoot
        if let endpoint = try Setting.value(s3Endpoint, "S3_ENDPOINT") {
            guard let url = URL(string: endpoint) else { throw ValidationError("--s3-endpoint: an http or https URL") }
            guard let signing = AWSSigning() else { throw ValidationError("--s3-endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") }
            do {
                service.s3Store = try S3DataLoader.Store(endpoint: url, signing: signing)
            } catch {
                throw ValidationError("--s3-endpoint: \(error)")
            }
        }
        let allowedBuckets = Setting.list(s3AllowedBucket, "S3_ALLOWED_BUCKETS"), deniedBuckets = Setting.list(s3DeniedBucket, "S3_DENIED_BUCKETS")
        if !allowedBuckets.isEmpty { service.s3AllowedBuckets = Set(allowedBuckets) }
        if !deniedBuckets.isEmpty { service.s3DeniedBuckets = Set(deniedBuckets) }
        if let path = try Setting.value(fallbackImage, "FALLBACK_IMAGE") {
            service.fallbackImage = .file(path: URL(fileURLWithPath: path).standardizedFileURL.path)
        }
    }

    /// The source and result limits, the deadlines and the redirects.
    private func configureLimits(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        if let megabytes = try Setting.value(maxSourceSize, "MAX_SOURCE_SIZE") { service.maxSourceBytes = Int64(megabytes) * 1_000_000 }
        if let megapixels = try Setting.value(maxSourceResolution, "MAX_SOURCE_RESOLUTION") { service.maxSourcePixels = megapixels * 1_000_000 }
        if let megapixels = try Setting.value(maxResultResolution, "MAX_RESULT_RESOLUTION") { service.maxResultPixels = megapixels * 1_000_000 }
        service.maxAnimationFrames = try Setting.value(maxAnimationFrames, "MAX_ANIMATION_FRAMES") ?? service.maxAnimationFrames
        if let budget = try Setting.value(maxMemory, "MAX_MEMORY") { service.maxMemory = budget.bytes > 0 ? budget.bytes : nil }
        service.maxRedirects = try Setting.value(maxRedirects, "MAX_REDIRECTS") ?? service.maxRedirects
        service.timeout = try Setting.value(timeout, "TIMEOUT").map(Self.duration) ?? service.timeout
        service.downloadTimeout = try Setting.value(downloadTimeout, "DOWNLOAD_TIMEOUT").map(Self.duration) ?? service.downloadTimeout
    }

    /// Presets, formats, qualities, the watermark and the answers' headers.
    private func configureAnswers(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        var definitions = Setting.list(preset, "PRESET")
        if let file = try Setting.value(presetsFile, "PRESETS_FILE") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            definitions += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        if !definitions.isEmpty {
            do {
                service.presets = try ImgproxyPresets(definitions: definitions)
            } catch {
                throw ValidationError("--preset: \(error)")
            }
        }
        if Setting.flag(onlyPresets, "ONLY_PRESETS") { service.onlyPresets = true }
        service.maxAge = try Setting.value(maxAge, "MAX_AGE") ?? service.maxAge
        if Setting.flag(developmentErrors, "DEVELOPMENT_ERRORS") { service.developmentErrors = true }
        service.corsOrigin = try Setting.value(allowOrigin, "ALLOW_ORIGIN") ?? service.corsOrigin
        if Setting.flag(cacheControlPassthrough, "CACHE_CONTROL_PASSTHROUGH") { service.passesCacheControl = true }
        if let path = try Setting.value(watermark, "WATERMARK") {
            do {
                service.watermark = try ImageCodec().decode(.file(path: path), options: DecodingOptions())
            } catch {
                throw ValidationError("--watermark \(path): \(error)")
            }
        }
        service.defaultQuality = try Setting.value(quality, "QUALITY") ?? service.defaultQuality
        for pair in Setting.list(formatQuality, "FORMAT_QUALITY") {
            let parts = pair.split(separator: "=").map(String.init)
            guard parts.count == 2, let format = ImageFormat(fileExtension: parts[0]), let quality = Int(parts[1]) else {
                throw ValidationError("--format-quality \(pair): give FORMAT=QUALITY")
            }
            service.formatQualities[format] = quality
        }
        let formats = { (names: [String], option: String) throws -> [ImageFormat]? in
            names.isEmpty ? nil : try names.map { name in
                guard let format = ImageFormat(fileExtension: name) else { throw ValidationError("--\(option): unknown format \(name)") }
                return format
            }
        }
        service.autoFormats = try formats(Setting.list(autoFormat, "AUTO_FORMAT"), "auto-format") ?? service.autoFormats
        service.enforcedFormats = try formats(Setting.list(enforceFormat, "ENFORCE_FORMAT"), "enforce-format") ?? service.enforcedFormats
        service.preferredFormats = try formats(Setting.list(preferredFormat, "PREFERRED_FORMAT"), "preferred-format") ?? service.preferredFormats
        if let offerOnly = try formats(Setting.list(offerOnlyFormat, "OFFER_ONLY_FORMAT"), "offer-only-format") {
            service.formatsNamedOnlyWhenOffered = Set(offerOnly)
        }
    }

    /// Whether logs are JSON: `--log-format` (`OSPREY_LOG_FORMAT`), else imgproxy's variable.
    func logsJSON(_ imgproxy: ImgproxyEnvironment) throws -> Bool {
        switch try ProgramEnvironment.value(logFormat, "LOG_FORMAT") {
        case "json"?: true
        case "text"?: false
        case let other?: throw ValidationError("--log-format \(other): give text or json")
        case nil: imgproxy.logsJSON
        }
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    /// `HOST:PORT`, the host maybe in brackets.
    static func address(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
            throw ValidationError("\(text): give HOST:PORT")
        }
        return (String(text[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
    }

    /// A configuration the service refuses, in the flags' words.
    static func message(for error: ServerConfigurationError) -> String {
        switch error {
        case .unsignedWithKeys: "--allow-unsigned with --key: a configured key means every URL must be signed"
        case .neitherKeysNorUnsigned: "give --key and --salt (or IMGPROXY_KEY and IMGPROXY_SALT), or --allow-unsigned to serve unsigned URLs"
        default: error.description
        }
    }
}
