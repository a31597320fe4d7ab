import ArgumentParser
import Foundation
import Osprey
import OspreyPrograms
import OspreyServer

extension ServerOptions {
    /// The caches' defaults: the memory cache holds photos' reduced decodes (answers are kept
    /// apart, `ImageService.Configuration.answerMemoryLimit`).
    static let cacheDefaults = CacheFlags.Defaults(folderName: "osprey-server", diskLimit: 2_048_000_000, memoryLimit: 32_000_000)

    /// The server these flags and variables describe; the service checks it whole when built.
    func configuration() throws -> ServerConfiguration {
        typealias Setting = ProgramEnvironment
        let host = try Setting.value(host, "HOST") ?? "127.0.0.1"
        let port = try Setting.value(port, "PORT") ?? 8080
        let keys: SigningKeys
        do {
            keys = try SigningKeys(hexKeys: Setting.list(key, "KEY"), hexSalts: Setting.list(salt, "SALT"))
        } catch {
            throw ValidationError(error.description)
        }
        let gallery = try Setting.value(gallery, "GALLERY").map { try Gallery(folder: URL(fileURLWithPath: $0), host: host, port: port, keys: keys) }
        let opened: [(Bool, IPAddress.Category)] = [(Setting.flag(allowLoopbackSources, "ALLOW_LOOPBACK_SOURCES"), .loopback),
                                                    (Setting.flag(allowPrivateSources, "ALLOW_PRIVATE_SOURCES"), .private),
                                                    (Setting.flag(allowLinkLocalSources, "ALLOW_LINK_LOCAL_SOURCES"), .linkLocal)]
        let policy = SourcePolicy(allowedPrefixes: Setting.list(allowOrigin, "ALLOW_ORIGIN") + (gallery.map { [$0.originPrefix] } ?? []),
                                  allowing: Set(opened.filter(\.0).map(\.1)))
        var service = ImageService.Configuration(signingKeys: keys, allowsUnsigned: Setting.flag(allowUnsigned, "ALLOW_UNSIGNED"),
                                                 sources: policy, osprey: try cache.configuration(Self.cacheDefaults))
        if let workers = try Setting.value(workers, "WORKERS") { service.osprey.maxConcurrentDecodes = workers }
        try configureLimits(&service)
        try configureSources(&service)
        try configureAnswers(&service)
        var server = ServerConfiguration(service: service, host: host, port: port)
        server.idleTimeout = try Setting.value(idleTimeout, "IDLE_TIMEOUT").map(Self.duration) ?? server.idleTimeout
        server.maxConnections = try Setting.value(maxConnections, "MAX_CONNECTIONS") ?? server.maxConnections
        server.maxQueue = try Setting.value(maxQueue, "MAX_QUEUE") ?? server.maxQueue
        if let bind = try Setting.value(metricsBind, "METRICS_BIND") {
            guard let colon = bind.lastIndex(of: ":"), let metricsPort = Int(bind[bind.index(after: colon)...]) else {
                throw ValidationError("--metrics-bind \(bind): give HOST:PORT")
            }
            let metrics = ServerMetrics.bootstrap()
            server.metrics = .init(host: String(bind[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: metricsPort,
                                   render: { metrics.text() })
        }
        if let gallery { server.routes = { gallery.addRoutes(to: $0) } }
        let announced = server.metrics.map { "osprey-server: metrics on http://\($0.host):\($0.port)/metrics\n" } ?? ""
        server.onServerRunning = { port in
            // Unbuffered, so whoever reads the log (a supervisor, a test) sees it at once.
            FileHandle.standardOutput.write(Data("osprey-server: listening on http://\(host):\(port)/\n\(announced)".utf8))
        }
        return server
    }

    /// The source and result limits, the deadlines and the redirects.
    private func configureLimits(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        if let megabytes = try Setting.value(maxSourceSize, "MAX_SOURCE_SIZE") { service.maxSourceBytes = Int64(megabytes) * 1_000_000 }
        if let megapixels = try Setting.value(maxSourceResolution, "MAX_SOURCE_RESOLUTION") { service.maxSourcePixels = megapixels * 1_000_000 }
        service.maxResultPixels = try Setting.value(maxResultResolution, "MAX_RESULT_RESOLUTION").map { $0 * 1_000_000 }
        service.maxAnimationFrames = try Setting.value(maxAnimationFrames, "MAX_ANIMATION_FRAMES") ?? service.maxAnimationFrames
        service.maxRedirects = try Setting.value(maxRedirects, "MAX_REDIRECTS") ?? service.maxRedirects
        service.timeout = try Setting.value(timeout, "TIMEOUT").map(Self.duration) ?? service.timeout
        service.downloadTimeout = try Setting.value(downloadTimeout, "DOWNLOAD_TIMEOUT").map(Self.duration) ?? service.downloadTimeout
    }

    /// The local root, the S3 store and the fallback image.
    private func configureSources(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        service.localRoot = try Setting.value(localRoot, "LOCAL_ROOT").map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let endpoint = try Setting.value(s3Endpoint, "S3_ENDPOINT") {
            guard let url = URL(string: endpoint) else { throw ValidationError("--s3-endpoint: an http or https URL") }
            guard let signing = AWSSigning() else { throw ValidationError("--s3-endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") }
            do {
                service.s3Store = try S3DataLoader.Store(endpoint: url, signing: signing)
            } catch {
                throw ValidationError("--s3-endpoint: \(error)")
            }
        }
        service.fallbackImage = try Setting.value(fallbackImage, "FALLBACK_IMAGE")
    }

    /// Presets, formats, qualities, the watermark and the answers' headers.
    private func configureAnswers(_ service: inout ImageService.Configuration) throws {
        typealias Setting = ProgramEnvironment
        var definitions = Setting.list(preset, "PRESET")
        if let file = try Setting.value(presetsFile, "PRESETS_FILE") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            definitions += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        do {
            service.presets = try ImgproxyPresets(definitions: definitions)
        } catch {
            throw ValidationError("--preset: \(error)")
        }
        service.onlyPresets = Setting.flag(onlyPresets, "ONLY_PRESETS")
        service.offersAVIF = Setting.flag(avif, "AVIF")
        service.offersJXL = Setting.flag(jxl, "JXL")
        service.maxAge = try Setting.value(maxAge, "MAX_AGE") ?? service.maxAge
        service.developmentErrors = Setting.flag(developmentErrors, "DEVELOPMENT_ERRORS")
        service.secret = try Setting.value(secret, "SECRET")
        service.corsOrigin = try Setting.value(corsOrigin, "CORS_ORIGIN")
        service.passesCacheControl = Setting.flag(cacheControlPassthrough, "CACHE_CONTROL_PASSTHROUGH")
        if let path = try Setting.value(watermark, "WATERMARK") {
            do {
                service.watermark = try ImageCodec().decode(.file(path: path), options: DecodingOptions())
            } catch {
                throw ValidationError("--watermark \(path): \(error)")
            }
        }
        let formats = { (names: [String], option: String) throws -> [ImageFormat] in
            try names.map { name in
                guard let format = ImageFormat(fileExtension: name) else { throw ValidationError("--\(option): unknown format \(name)") }
                return format
            }
        }
        service.enforcedFormats = try formats(Setting.list(enforceFormat, "ENFORCE_FORMAT"), "enforce-format")
        service.preferredFormats = try formats(Setting.list(preferredFormat, "PREFERRED_FORMAT"), "preferred-format")
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    /// A configuration the service refuses, in the flags' words.
    static func message(for error: ServerConfigurationError) -> String {
        switch error {
        case .unsignedWithKeys: "--allow-unsigned with --key: a configured key means every URL must be signed"
        case .neitherKeysNorUnsigned: "give --key and --salt, or --allow-unsigned to serve unsigned URLs"
        default: error.description
        }
    }
}
