import ArgumentParser
import Foundation
import Hummingbird
import HummingbirdCore
import Osprey
import OspreyAllocation
import OspreyDomain
import OspreyPrograms
import OspreyServer

/// `osprey-server`: thumbnails of remote images behind imgproxy-style URLs.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey-server",
        abstract: "An image server speaking imgproxy's URL format, with Osprey's caches behind it.",
        discussion: """
            Every option also reads an environment variable, OSPREY_ and its name in capitals \
            (OSPREY_KEY, OSPREY_SALT, OSPREY_ALLOW_ORIGIN…); repeatable ones take several values \
            separated by commas. SIGINT or SIGTERM stops accepting and finishes what is in flight.

            Example:
              osprey-server --port 8080 --key 943b421c9eb07c83 --salt 520f986b998545b4 \\
                --allow-origin https://images.example.com/
            """
    )

    @Option(help: "The address to listen on.") var host: String?
    @Option(help: "The port (default 8080).") var port: Int?
    @Option(help: "A signing key in hex; repeat with --salt, in pairs, while keys rotate.") var key: [String] = []
    @Option(help: "A signing salt in hex, paired with the --key of the same position.") var salt: [String] = []
    @Option(help: "A URL prefix sources may start with; repeat for more (default: any public URL).") var allowOrigin: [String] = []
    @Flag(help: "Accept URLs with `insecure` or `_` in place of a signature (only without --key).") var allowUnsigned = false
    @Option(help: "HOST:PORT to serve /metrics on, apart from the public port (default: no metrics).") var metricsBind: String?
    @Option(help: "Seconds a connection may wait for a whole request head, idle or trickling bytes, before it is closed (default 10).")
    var idleTimeout: Double?
    @Option(help: "Connections served at once; past it, new ones wait in the listen queue (default 1024).") var maxConnections: Int?
    @Option(help: "Seconds a request may take in all; past it, its work is cancelled and it is answered 504 (default 10).")
    var timeout: Double?
    @Option(help: "Seconds a source's download may take (default 5).") var downloadTimeout: Double?
    @Option(help: "Threads decoding, processing and encoding images at once, apart from those answering (default: one per core).")
    var workers: Int?
    @Flag(help: "Fetch sources whose host resolves to a loopback address (this machine).") var allowLoopbackSources = false
    @Flag(help: "Fetch sources whose host resolves to a private address (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7).")
    var allowPrivateSources = false
    @Flag(help: "Fetch sources whose host resolves to a link-local address (169.254/16, fe80::/10).") var allowLinkLocalSources = false
    @OptionGroup var cache: CacheFlags
    @Option(help: "Requests served or waiting at once; past it, 503 with Retry-After (default 64).") var maxQueue: Int?
    @Option(help: "Cache-Control max-age of answers, in seconds (default 31536000).") var maxAge: Int?
    @Flag(help: "Answer AVIF to clients that accept it (it costs more to encode).") var avif = false
    @Flag(help: "Answer JPEG XL to clients that accept it (image/jxl), before AVIF and WebP.") var jxl = false
    @Flag(help: "Error answers carry their detail (what was fetched, why it failed); for development only.") var developmentErrors = false
    @Option(help: "The largest source to download, in megabytes (default 50).") var maxSourceSize: Int?
    @Option(help: "The most pixels a source may have, in megapixels (default 50); every frame of an animation is checked.")
    var maxSourceResolution: Int?
    @Option(help: "The most pixels an answer may have, its frames counted together, in megapixels (default: the source's limit).")
    var maxResultResolution: Int?
    @Option(help: "The most frames an animated source may have (default 200).") var maxAnimationFrames: Int?
    @Option(help: "Redirects followed when fetching a source (default 3).") var maxRedirects: Int?
    @Option(help: "A preset, NAME=OPTIONS as in a URL (thumb=rs:fill:64:64/q:70); repeat for more. `default` applies to every URL.")
    var preset: [String] = []
    @Option(help: "A file of presets, one NAME=OPTIONS a line (# starts a comment).") var presetsFile: String?
    @Flag(help: "URLs name presets only: /{signature}/{preset:preset…}/{source}.") var onlyPresets = false
    @Option(help: "The image `wm` lays over answers (as imgproxy's IMGPROXY_WATERMARK_PATH).") var watermark: String?
    @Option(help: "The folder local:///path sources are read from; none: local sources are refused.") var localRoot: String?
    @Option(help: "An S3-compatible endpoint for s3://bucket/key sources (path-style), signed with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION; it may be on a loopback or private address.")
    var s3Endpoint: String?
    @Option(help: "A local image answered, processed as asked, when a source fails.") var fallbackImage: String?
    @Option(help: "Requests must carry Authorization: Bearer SECRET.") var secret: String?
    @Option(help: "Access-Control-Allow-Origin of image answers, e.g. * or https://app.example.com.") var corsOrigin: String?
    @Flag(help: "Answers' Cache-Control max-age follows the source's freshness where it gave one.") var cacheControlPassthrough = false
    @Option(help: "A format answered to clients that accept it even over the URL's: webp, avif or jxl; repeat for more.")
    var enforceFormat: [String] = []
    @Option(help: "A format for answers when the URL names none and the client takes no offered one, most preferred first; repeat.")
    var preferredFormat: [String] = []
    @Option(help: "Serve the demo: a page of this folder's images at /, the folder itself at /origin/ (which becomes an allowed source).")
    var gallery: String?

    /// The caches' defaults: the memory cache holds photos' reduced decodes (answers are kept
    /// apart, `ImageService.Configuration.answerMemoryLimit`).
    static let cacheDefaults = CacheFlags.Defaults(folderName: "osprey-server", diskLimit: 2_048_000_000, memoryLimit: 32_000_000)

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        typealias Setting = ProgramEnvironment
        let host = try Setting.value(host, "HOST") ?? "127.0.0.1"
        let port = try Setting.value(port, "PORT") ?? 8080
        let keys: SigningKeys
        do {
            keys = try SigningKeys(hexKeys: Setting.list(key, "KEY"), hexSalts: Setting.list(salt, "SALT"))
        } catch {
            throw ValidationError(error.description)
        }
        let allowUnsigned = Setting.flag(allowUnsigned, "ALLOW_UNSIGNED")
        let opened: [(Bool, IPAddress.Category)] = [(Setting.flag(allowLoopbackSources, "ALLOW_LOOPBACK_SOURCES"), .loopback),
                                                    (Setting.flag(allowPrivateSources, "ALLOW_PRIVATE_SOURCES"), .private),
                                                    (Setting.flag(allowLinkLocalSources, "ALLOW_LINK_LOCAL_SOURCES"), .linkLocal)]
        let gallery = try Setting.value(gallery, "GALLERY").map { try Gallery(folder: URL(fileURLWithPath: $0), host: host, port: port, keys: keys) }
        let s3Endpoint = try Setting.value(s3Endpoint, "S3_ENDPOINT").map { text in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else { throw ValidationError("--s3-endpoint: an http or https URL") }
            return url
        }
        let policy = SourcePolicy(allowedPrefixes: Setting.list(allowOrigin, "ALLOW_ORIGIN") + (gallery.map { [$0.originPrefix] } ?? []),
                                  allowing: Set(opened.filter(\.0).map(\.1)))
        guard !(allowUnsigned && !keys.pairs.isEmpty) else {
            throw ValidationError("--allow-unsigned with --key: a configured key means every URL must be signed")
        }
        guard !keys.pairs.isEmpty || allowUnsigned else {
            throw ValidationError("give --key and --salt, or --allow-unsigned to serve unsigned URLs")
        }
        var configuration = try cache.configuration(Self.cacheDefaults)
        configuration.network.maxRedirects = try Setting.value(maxRedirects, "MAX_REDIRECTS") ?? 3
        let requestTimeout = try Setting.value(timeout, "TIMEOUT") ?? 10
        let downloadSeconds = try Setting.value(downloadTimeout, "DOWNLOAD_TIMEOUT") ?? 5
        guard requestTimeout > 0, downloadSeconds > 0 else { throw ValidationError("--timeout and --download-timeout must be positive") }
        // A download, and the waits its retries make, end within the download's deadline.
        configuration.network.transferTimeout = min(configuration.network.transferTimeout, downloadSeconds)
        configuration.network.connectTimeout = min(configuration.network.connectTimeout, downloadSeconds)
        configuration.network.maxRetryAfter = min(configuration.network.maxRetryAfter, downloadSeconds / 2)
        if let workers = try Setting.value(workers, "WORKERS") {
            guard workers > 0 else { throw ValidationError("--workers must be positive") }
            configuration.maxConcurrentDecodes = workers
        }
        // One origin may hold all load slots but two: a slow one cannot queue the others, or
        // the cached images that still need a slot to decode, behind it.
        configuration.maxConcurrentLoadsPerOrigin = max(1, configuration.network.maxConcurrentTransfers + configuration.maxConcurrentDecodes - 2)
        // Where the sockets connect, and before each redirect is followed, as imgproxy checks.
        configuration.network.addressPolicy = policy.addressPolicy
        configuration.network.sourceFilter = { policy.refusal(for: $0) }
        if let s3Endpoint {
            guard let signing = AWSSigning() else { throw ValidationError("--s3-endpoint: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") }
            do {
                configuration.s3Store = try S3DataLoader.Store(endpoint: s3Endpoint, signing: signing)
            } catch {
                throw ValidationError("--s3-endpoint: \(error)")
            }
        }
        let sourceMB = try Setting.value(maxSourceSize, "MAX_SOURCE_SIZE") ?? 50
        configuration.network.maxResponseSize = Int64(sourceMB) * 1_000_000
        configuration.decodingLimits.maxInputBytes = Int64(sourceMB) * 1_000_000
        configuration.decodingLimits.maxPixels = (try Setting.value(maxSourceResolution, "MAX_SOURCE_RESOLUTION") ?? 50) * 1_000_000
        configuration.maxResultPixels = try Setting.value(maxResultResolution, "MAX_RESULT_RESOLUTION").map { $0 * 1_000_000 }
            ?? configuration.decodingLimits.maxPixels
        configuration.decodingLimits.maxFrames = try Setting.value(maxAnimationFrames, "MAX_ANIMATION_FRAMES") ?? 200
        var definitions = Setting.list(preset, "PRESET")
        if let file = try Setting.value(presetsFile, "PRESETS_FILE") {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            definitions += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        let presets: ImgproxyPresets
        do {
            presets = try ImgproxyPresets(definitions: definitions)
        } catch {
            throw ValidationError("--preset: \(error)")
        }
        let parts = try configuration.makeParts()
        var serving = ImageService.Configuration(
            signingKeys: keys, allowsUnsigned: allowUnsigned, sources: policy, offersAVIF: Setting.flag(avif, "AVIF"),
            maxAge: try Setting.value(maxAge, "MAX_AGE") ?? 31_536_000, presets: presets,
            onlyPresets: Setting.flag(onlyPresets, "ONLY_PRESETS"))
        try configureSources(&serving, decoder: parts.pipeline.configuration.decoder)
        serving.servesS3 = s3Endpoint != nil
        serving.offersJXL = Setting.flag(jxl, "JXL")
        serving.developmentErrors = Setting.flag(developmentErrors, "DEVELOPMENT_ERRORS")
        serving.timeout = .milliseconds(Int64(requestTimeout * 1000))
        let service = ImageService(pipeline: parts.pipeline, configuration: serving)
        let metrics = ServerMetrics.bootstrap()
        let router = Router(context: BasicRequestContext.self)
        router.get("/health") { _, _ in "ok\n" }
        gallery?.addRoutes(to: router)
        router.group()
            .add(middleware: ImageMetricsMiddleware<BasicRequestContext>())
            .add(middleware: AdmissionMiddleware<BasicRequestContext>(limit: try Setting.value(maxQueue, "MAX_QUEUE") ?? 64))
            .addImageRoutes(service)
        // Hummingbird's idle timer runs from the last whole request part read or the last answer
        // written, so it closes idle keep-alive connections and heads that trickle in alike.
        let idle = try Setting.value(idleTimeout, "IDLE_TIMEOUT") ?? 10
        let connections = try Setting.value(maxConnections, "MAX_CONNECTIONS") ?? 1024
        guard idle > 0, connections > 0 else { throw ValidationError("--idle-timeout and --max-connections must be positive") }
        let app = Application(router: router, server: .http1(configuration: .init(idleTimeout: .milliseconds(Int64(idle * 1000)))),
                              configuration: .init(address: .hostname(host, port: port),
                                                   availableConnectionsDelegate: MaximumAvailableConnections(connections)),
                              onServerRunning: { _ in
            // Unbuffered, so whoever reads the log (a supervisor, a test) sees it at once.
            FileHandle.standardOutput.write(Data("osprey-server: listening on http://\(host):\(port)/\n".utf8))
        })
        // Metrics on an address of their own, as imgproxy's IMGPROXY_PROMETHEUS_BIND: counts of
        // refusals and tiers are the operator's, not every client's.
        let metricsApp = try Setting.value(metricsBind, "METRICS_BIND").map { bind throws in
            guard let colon = bind.lastIndex(of: ":"), let metricsPort = Int(bind[bind.index(after: colon)...]) else {
                throw ValidationError("--metrics-bind \(bind): give HOST:PORT")
            }
            let metricsHost = String(bind[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            let metricsRouter = Router(context: BasicRequestContext.self)
            metricsRouter.get("/metrics") { _, _ in metrics.response() }
            return Application(router: metricsRouter, configuration: .init(address: .hostname(metricsHost, port: metricsPort)),
                               onServerRunning: { _ in
                FileHandle.standardOutput.write(Data("osprey-server: metrics on http://\(bind)/metrics\n".utf8))
            })
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let metricsApp { group.addTask { try await metricsApp.run() } }
            try await app.runService()
            group.cancelAll()
        }
        parts.disk?.close()
        print("osprey-server: stopped")
    }

    /// The local root, the watermark and fallback images, the secret, CORS and the formats.
    private func configureSources(_ serving: inout ImageService.Configuration, decoder: any ImageDecoding) throws {
        typealias Setting = ProgramEnvironment
        serving.localRoot = try Setting.value(localRoot, "LOCAL_ROOT").map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let path = try Setting.value(watermark, "WATERMARK") {
            do {
                serving.watermark = try decoder.decode(.file(path: path), options: DecodingOptions())
            } catch {
                throw ValidationError("--watermark \(path): \(error)")
            }
        }
        if let path = try Setting.value(fallbackImage, "FALLBACK_IMAGE") {
            guard FileManager.default.isReadableFile(atPath: path) else { throw ValidationError("--fallback-image \(path): not a readable file") }
            serving.fallbackImage = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        serving.secret = try Setting.value(secret, "SECRET")
        serving.corsOrigin = try Setting.value(corsOrigin, "CORS_ORIGIN")
        serving.passesCacheControl = Setting.flag(cacheControlPassthrough, "CACHE_CONTROL_PASSTHROUGH")
        let formats = { (names: [String], option: String) throws -> [ImageFormat] in
            try names.map { name in
                do {
                    return try ImgproxyOptions.format(name)
                } catch {
                    throw ValidationError("--\(option): \(error)")
                }
            }
        }
        serving.enforcedFormats = try formats(Setting.list(enforceFormat, "ENFORCE_FORMAT"), "enforce-format")
        serving.preferredFormats = try formats(Setting.list(preferredFormat, "PREFERRED_FORMAT"), "preferred-format")
    }
}
