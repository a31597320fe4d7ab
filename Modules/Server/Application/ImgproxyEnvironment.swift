import Foundation
import Osprey

/// An imgproxy deployment's environment (`IMGPROXY_*`, and `PORT` and `AWS_*` as imgproxy
/// reads them), read as imgproxy v3.31 documents each variable — its units, defaults, list and
/// map syntaxes — onto a ``ServerConfiguration``, so that an imgproxy env file starts an
/// Osprey server unchanged.
///
/// A variable whose meaning exists here is honoured. One that cannot be is never passed over
/// in silence: where ignoring it would change what is served or who may use it, ``apply(to:)``
/// throws, naming it; otherwise it is named in the notices `apply(to:)` returns, as are
/// imgproxy Pro's variables. Where imgproxy's default is less safe than Osprey's (private
/// source addresses), Osprey's stays and a notice says so.
///
/// ```swift
/// var server = ServerConfiguration(service: .init(signingKeys: .none, allowsUnsigned: true))
/// let notices = try ImgproxyEnvironment().apply(to: &server)
/// ```
public struct ImgproxyEnvironment: Sendable {
    /// The environment read.
    public let environment: [String: String]

    /// Reads `environment`, the process's by default.
    public init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The `IMGPROXY_` variables set (an empty one counts as unset, as imgproxy reads them).
    public var names: [String] {
        environment.filter { $0.key.hasPrefix("IMGPROXY_") && !$0.value.isEmpty }.keys.sorted()
    }

    /// Where imgproxy's Prometheus metrics are served (`IMGPROXY_PROMETHEUS_BIND`), as host and port.
    public func prometheusBind() throws(ImgproxyEnvironmentError) -> (host: String, port: Int)? {
        try value("PROMETHEUS_BIND").map { text throws(ImgproxyEnvironmentError) in try Self.address(text, name: "PROMETHEUS_BIND") }
    }

    /// The prefix of the metrics' names (`IMGPROXY_PROMETHEUS_NAMESPACE`; none by default).
    public var prometheusNamespace: String? { value("PROMETHEUS_NAMESPACE") }

    /// Whether logs are JSON lines (`IMGPROXY_LOG_FORMAT=json`, or `structured` or `gcp`,
    /// which are JSON too), else text.
    public var logsJSON: Bool { ["json", "structured", "gcp"].contains(value("LOG_FORMAT")?.lowercased() ?? "") }

    /// The least level logged (`IMGPROXY_LOG_LEVEL`: `debug`, `info`, `warn`, `error`).
    public var logLevel: String? { value("LOG_LEVEL")?.lowercased() }

    /// Sets what the variables say on `server`, over what it holds.
    /// - Returns: What the operator should be told once at start: variables not honoured
    ///   that change nothing served, Pro-only ones, and defaults of Osprey's kept.
    /// - Throws: ``ImgproxyEnvironmentError`` for a value that does not parse or is out of
    ///   range, or a variable whose meaning Osprey cannot honour and whose absence would
    ///   change what is served or who may use it.
    public func apply(to server: inout ServerConfiguration) throws(ImgproxyEnvironmentError) -> [String] {
        var notices: [String] = []
        for name in names {
            let short = String(name.dropFirst("IMGPROXY_".count))
            if let reason = Self.refused[short] {
                if refuses(short) { throw ImgproxyEnvironmentError(name: name, reason: reason) }
            } else if let reason = Self.unhonoured[short] {
                notices.append("\(name) is not honoured: \(reason)")
            } else if Self.known.contains(short) {
                continue
            } else if Self.reporting.contains(where: { short.hasPrefix($0) }) {
                notices.append("\(name) is not honoured: Osprey reports to no outside service; its metrics are Prometheus'")
            } else if Self.proOnly.contains(where: { short.hasPrefix($0) }) {
                notices.append("\(name) is an imgproxy Pro setting, which Osprey does not have")
            } else if Self.mayRestrict(short) {
                // Passed over, a setting that limits access would leave the server open.
                throw ImgproxyEnvironmentError(name: name, reason: "Osprey does not know this setting, and it may restrict access")
            } else {
                notices.append("\(name) is not an imgproxy setting Osprey knows; it is ignored")
            }
        }
        try applyServer(to: &server, notices: &notices)
        try applySigning(to: &server.service, notices: &notices)
        try applyLimits(to: &server.service, notices: &notices)
        try applySources(to: &server.service, notices: &notices)
        try applyAnswers(to: &server.service)
        return notices
    }

    /// Whether a refused variable is set to what Osprey cannot do (a switch set off is not).
    private func refuses(_ name: String) -> Bool {
        guard let text = value(name) else { return false }
        switch name {
        case "NETWORK": return !["tcp", "tcp4", "tcp6"].contains(text)
        case "ARGUMENTS_SEPARATOR": return text != ":"
        case "WATERMARK_OPACITY": return Double(text) != 1
        default: return (try? Self.bool(text, name: name)) ?? true
        }
    }

    /// The address, timeouts, queue, metrics' address, health check and path prefix.
    private func applyServer(to server: inout ServerConfiguration, notices: inout [String]) throws(ImgproxyEnvironmentError) {
        if let port = environment["PORT"].flatMap({ $0.isEmpty ? nil : $0 }) {
            server.host = "0.0.0.0"
            server.port = try Self.int(port, name: "PORT", least: 0)
        }
        if let bind = value("BIND") { (server.host, server.port) = try Self.address(bind, name: "BIND") }
        if let timeout = try seconds(named("TIMEOUT", "WRITE_TIMEOUT")) { server.service.timeout = timeout }
        if let timeout = try seconds(named("READ_REQUEST_TIMEOUT", "READ_TIMEOUT")) { server.idleTimeout = timeout }
        if let timeout = try seconds("DOWNLOAD_TIMEOUT") { server.service.downloadTimeout = timeout }
        if let workers = try int(named("WORKERS", "CONCURRENCY"), least: 1) { server.service.osprey.maxConcurrentDecodes = workers }
        if let queue = try int("REQUESTS_QUEUE_SIZE", least: 0) {
            if queue > 0 {
                server.maxQueue = queue + server.service.osprey.maxConcurrentDecodes
            } else {
                notices.append("IMGPROXY_REQUESTS_QUEUE_SIZE=0 (no bound) is not honoured: Osprey keeps its bound of \(server.maxQueue) requests")
            }
        }
        if let clients = try int("MAX_CLIENTS", least: 0) {
            if clients > 0 { server.maxConnections = clients }
            else { notices.append("IMGPROXY_MAX_CLIENTS=0 (no bound) is not honoured: Osprey keeps its bound of \(server.maxConnections)") }
        }
        if let prefix = value("PATH_PREFIX") { server.pathPrefix = Self.urlPath(prefix) }
        if let path = value("HEALTH_CHECK_PATH") { server.healthPath = Self.urlPath(path) }
        if let bind = try prometheusBind(), bind.host == server.host, bind.port == server.port {
            throw ImgproxyEnvironmentError(name: "IMGPROXY_PROMETHEUS_BIND", reason: "the same address as the server's")
        }
    }

    /// Keys, salts, the signature's size, trusted signatures and the secret.
    private func applySigning(to service: inout ImageService.Configuration, notices: inout [String]) throws(ImgproxyEnvironmentError) {
        let keys = list("KEY"), salts = list("SALT")
        let size = try int("SIGNATURE_SIZE", least: 1) ?? 32
        guard size <= 32 else { throw ImgproxyEnvironmentError(name: "IMGPROXY_SIGNATURE_SIZE", reason: "1…32 bytes") }
        do {
            service.signingKeys = try SigningKeys(hexKeys: keys, hexSalts: salts, signatureSize: size)
        } catch {
            throw ImgproxyEnvironmentError(name: "IMGPROXY_KEY", reason: error.description)
        }
        // imgproxy checks no signature without keys: every URL is served.
        if !names.isEmpty {
            service.allowsUnsigned = keys.isEmpty
            if keys.isEmpty { notices.append("no IMGPROXY_KEY and IMGPROXY_SALT: signatures are not checked, as imgproxy does not check them") }
        }
        service.trustedSignatures = Set(list("TRUSTED_SIGNATURES"))
        if let secret = value("SECRET") { service.secret = secret }
    }

    /// Source and result limits, and redirects.
    private func applyLimits(to service: inout ImageService.Configuration, notices: inout [String]) throws(ImgproxyEnvironmentError) {
        if let pixels = try megapixels("MAX_SRC_RESOLUTION") { service.maxSourcePixels = pixels }
        if let bytes = try int("MAX_SRC_FILE_SIZE", least: 0) {
            if bytes > 0 {
                service.maxSourceBytes = Int64(bytes)
            } else {
                notices.append("IMGPROXY_MAX_SRC_FILE_SIZE=0 (no bound) is not honoured: Osprey keeps its bound of \(service.maxSourceBytes) bytes")
            }
        }
        if let frames = try int("MAX_ANIMATION_FRAMES", least: 1) { service.maxAnimationFrames = frames }
        if let bytes = try int("MAX_MEMORY", least: 0) { service.maxMemory = bytes > 0 ? bytes : nil }
        if let redirects = try int("MAX_REDIRECTS", least: 0) { service.maxRedirects = redirects }
        if let allowed = try bool("ALLOW_SECURITY_OPTIONS") { service.allowsSecurityOptions = allowed }
    }

    /// Allowed sources and addresses, the local root, S3 and the fallback image.
    private func applySources(to service: inout ImageService.Configuration, notices: inout [String]) throws(ImgproxyEnvironmentError) {
        var categories = service.sources.addressPolicy.allowedCategories
        for (name, category) in [("ALLOW_LOOPBACK_SOURCE_ADDRESSES", IPAddress.Category.loopback), ("ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", .linkLocal),
                                 ("ALLOW_PRIVATE_SOURCE_ADDRESSES", .private)] {
            switch try bool(name) {
            case true?: categories.insert(category)
            case false?: categories.remove(category)
            case nil: break
            }
        }
        if !names.isEmpty, value("ALLOW_PRIVATE_SOURCE_ADDRESSES") == nil {
            notices.append("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES is not set: Osprey refuses sources on private addresses, "
                           + "where imgproxy allows them by default; set it to true to allow them")
        }
        let prefixes = value("ALLOWED_SOURCES").map { _ in list("ALLOWED_SOURCES") } ?? service.sources.allowedPrefixes
        service.sources = SourcePolicy(allowedPrefixes: prefixes, allowing: categories)
        if let root = value("LOCAL_FILESYSTEM_ROOT") { service.localRoot = URL(fileURLWithPath: root, isDirectory: true) }
        if try bool("USE_S3") == true {
            let region = value("S3_REGION") ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
            guard let key = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"] else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_USE_S3", reason: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
            }
            let signing = AWSSigning(region: region, accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
            let endpoint = value("S3_ENDPOINT").map { $0.contains("://") ? $0 : "https://" + $0 } ?? "https://s3.\(region).amazonaws.com"
            guard let url = URL(string: endpoint) else { throw ImgproxyEnvironmentError(name: "IMGPROXY_S3_ENDPOINT", reason: "not a URL") }
            do {
                service.s3Store = try S3DataLoader.Store(endpoint: url, signing: signing)
            } catch {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_S3_ENDPOINT", reason: error.description)
            }
        }
        if value("S3_ALLOWED_BUCKETS") != nil { service.s3AllowedBuckets = Set(list("S3_ALLOWED_BUCKETS")) }
        if value("S3_DENIED_BUCKETS") != nil { service.s3DeniedBuckets = Set(list("S3_DENIED_BUCKETS")) }
        if let path = value("FALLBACK_IMAGE_PATH") {
            service.fallbackImage = .file(path: URL(fileURLWithPath: path).standardizedFileURL.path)
        } else if let url = value("FALLBACK_IMAGE_URL") {
            guard let parsed = URL(string: url) else { throw ImgproxyEnvironmentError(name: "IMGPROXY_FALLBACK_IMAGE_URL", reason: "not a URL") }
            service.fallbackImage = .url(parsed)
        } else if let data = value("FALLBACK_IMAGE_DATA") {
            service.fallbackImage = .file(path: try Self.file(base64: data, name: "FALLBACK_IMAGE_DATA"))
        }
        if let status = try int("FALLBACK_IMAGE_HTTP_CODE", least: 0) {
            guard status == 0 || (100...599).contains(status) else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", reason: "0, or 100…599")
            }
            service.fallbackStatus = status
        }
        if let ttl = try int("FALLBACK_IMAGE_TTL", least: 0) { service.fallbackMaxAge = ttl }
    }

    /// Formats, qualities, presets, the watermark and headers.
    private func applyAnswers(to service: inout ImageService.Configuration) throws(ImgproxyEnvironmentError) {
        var auto = service.autoFormats, enforced = service.enforcedFormats
        for (format, autoName, enforceName, legacy) in [(ImageFormat.webp, "AUTO_WEBP", "ENFORCE_WEBP", "ENABLE_WEBP_DETECTION"),
                                                        (.avif, "AUTO_AVIF", "ENFORCE_AVIF", "ENABLE_AVIF_DETECTION"),
                                                        (.jxl, "AUTO_JXL", "ENFORCE_JXL", nil)] {
            if let on = try bool(named(autoName, legacy ?? autoName)) {
                auto.removeAll { $0 == format }
                if on { auto.append(format) }
            }
            if let on = try bool(enforceName) {
                enforced.removeAll { $0 == format }
                if on { enforced.append(format) }
            }
        }
        (service.autoFormats, service.enforcedFormats) = (auto, enforced)
        if value("PREFERRED_FORMATS") != nil {
            service.preferredFormats = try formats("PREFERRED_FORMATS")
            guard !service.preferredFormats.isEmpty else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_PREFERRED_FORMATS", reason: "at least one format")
            }
        }
        if value("SKIP_PROCESSING_FORMATS") != nil { service.skipProcessingFormats = Set(try formats("SKIP_PROCESSING_FORMATS")) }
        if let quality = try int("QUALITY", least: 1) {
            guard quality <= 100 else { throw ImgproxyEnvironmentError(name: "IMGPROXY_QUALITY", reason: "1…100") }
            service.defaultQuality = quality
        }
        for pair in list("FORMAT_QUALITY") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let format = ImageFormat(fileExtension: parts[0]), let quality = Int(parts[1]), (1...100).contains(quality) else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_FORMAT_QUALITY", reason: "\(pair): give FORMAT=QUALITY pairs, qualities 1…100")
            }
            service.formatQualities[format] = quality
        }
        if let ttl = try int("TTL", least: 0) { service.maxAge = ttl }
        if let passes = try bool("CACHE_CONTROL_PASSTHROUGH") { service.passesCacheControl = passes }
        if let on = try bool("USE_ETAG") { service.usesETags = on }
        if let on = try bool("USE_LAST_MODIFIED") { service.usesLastModified = on }
        if let on = try bool("RETURN_ATTACHMENT") { service.returnsAttachment = on }
        if let on = try bool("ENABLE_DEBUG_HEADERS") { service.debugHeaders = on }
        if let on = try bool("ENABLE_CLIENT_HINTS") { service.usesClientHints = on }
        if let on = try bool("DEVELOPMENT_ERRORS_MODE") { service.developmentErrors = on }
        if let on = try bool("SET_CANONICAL_HEADER") { service.setsCanonicalHeader = on }
        if let strips = try bool("STRIP_COLOR_PROFILE") { service.keepsColorProfiles = !strips }
        if let on = try bool("AUTO_ROTATE") { service.autoRotates = on }
        if let on = try bool("ALWAYS_RASTERIZE_SVG") { service.alwaysRasterizesSVG = on }
        if let on = try bool("JPEG_PROGRESSIVE") { service.osprey.encoders.append(JPEGEncoder(progressive: on)) }
        if let speed = try int("AVIF_SPEED", least: 0) {
            guard speed <= 9 else { throw ImgproxyEnvironmentError(name: "IMGPROXY_AVIF_SPEED", reason: "0…9") }
            service.osprey.encoders.append(AVIFEncoder(speed: speed))
        }
        if let effort = try int("JXL_EFFORT", least: 1) {
            guard effort <= 9 else { throw ImgproxyEnvironmentError(name: "IMGPROXY_JXL_EFFORT", reason: "1…9") }
            service.osprey.encoders.append(JXLEncoder(effort: effort))
        }
        if let origin = value("ALLOW_ORIGIN") { service.corsOrigin = origin }
        if let base = value("BASE_URL") { service.baseURL = base }
        try applyPresets(to: &service)
        var watermark = value("WATERMARK_PATH")
        if watermark == nil, let data = value("WATERMARK_DATA") { watermark = try Self.file(base64: data, name: "WATERMARK_DATA") }
        if let path = watermark {
            do {
                service.watermark = try ImageCodec().decode(.file(path: path), options: DecodingOptions())
            } catch {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_WATERMARK_PATH", reason: "\(error)")
            }
        }
    }

    /// `IMGPROXY_PRESETS` (split by `IMGPROXY_PRESETS_SEPARATOR`), then the file at
    /// `IMGPROXY_PRESETS_PATH`, one a line; and `IMGPROXY_ONLY_PRESETS`.
    private func applyPresets(to service: inout ImageService.Configuration) throws(ImgproxyEnvironmentError) {
        var definitions = list("PRESETS", separator: value("PRESETS_SEPARATOR") ?? ",")
        if let path = value("PRESETS_PATH") {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_PRESETS_PATH", reason: "\(path) cannot be read")
            }
            definitions += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        if !definitions.isEmpty {
            do {
                service.presets = try ImgproxyPresets(definitions: definitions)
            } catch {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_PRESETS", reason: error.description)
            }
        }
        if let only = try bool("ONLY_PRESETS") { service.onlyPresets = only }
    }

    // MARK: Values as imgproxy reads them

    /// The first of `names` that is set (a variable, then its deprecated name), else the first.
    private func named(_ names: String...) -> String {
        names.first { value($0) != nil } ?? names[0]
    }

    private func value(_ name: String) -> String? {
        environment["IMGPROXY_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A comma-separated list, each item trimmed, empty ones dropped.
    private func list(_ name: String, separator: String = ",") -> [String] {
        (value(name) ?? "").components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private func bool(_ name: String) throws(ImgproxyEnvironmentError) -> Bool? {
        try value(name).map { text throws(ImgproxyEnvironmentError) in try Self.bool(text, name: name) }
    }

    private func int(_ name: String, least: Int) throws(ImgproxyEnvironmentError) -> Int? {
        try value(name).map { text throws(ImgproxyEnvironmentError) in try Self.int(text, name: "IMGPROXY_" + name, least: least) }
    }

    private func seconds(_ name: String) throws(ImgproxyEnvironmentError) -> Duration? {
        try int(name, least: 1).map { .seconds($0) }
    }

    /// imgproxy's "mega" numbers: decimal megapixels (`16.8`), as whole pixels.
    private func megapixels(_ name: String) throws(ImgproxyEnvironmentError) -> Int? {
        try value(name).map { text throws(ImgproxyEnvironmentError) in
            guard let megapixels = Double(text), megapixels > 0 else { throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "\(text) is not a positive number") }
            return Int(megapixels * 1_000_000)
        }
    }

    private func formats(_ name: String) throws(ImgproxyEnvironmentError) -> [ImageFormat] {
        var formats: [ImageFormat] = []
        for item in list(name) {
            guard let format = ImageFormat(fileExtension: item.lowercased()) else {
                throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "\(item) is not a format")
            }
            formats.append(format)
        }
        return formats
    }

    /// Go's `strconv.ParseBool`.
    static func bool(_ text: String, name: String) throws(ImgproxyEnvironmentError) -> Bool {
        switch text {
        case "1", "t", "T", "TRUE", "true", "True": return true
        case "0", "f", "F", "FALSE", "false", "False": return false
        default: throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "\(text) is not a boolean")
        }
    }

    static func int(_ text: String, name: String, least: Int) throws(ImgproxyEnvironmentError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= least else {
            throw ImgproxyEnvironmentError(name: name, reason: "\(text) is not a whole number of \(least) or more")
        }
        return value
    }

    /// `HOST:PORT`, `:PORT` (every address) or `[IPv6]:PORT`.
    static func address(_ text: String, name: String) throws(ImgproxyEnvironmentError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "\(text): give HOST:PORT or :PORT")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    /// imgproxy's URL paths: a leading slash, no trailing one.
    static func urlPath(_ text: String) -> String {
        var path = text.hasPrefix("/") ? text : "/" + text
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path == "/" ? "" : path
    }

    /// Base64 data written to a file of its own, for settings that take a file.
    static func file(base64: String, name: String) throws(ImgproxyEnvironmentError) -> String {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "not base64")
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-\(name.lowercased())-\(ContentDigest.hex(data))")
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ImgproxyEnvironmentError(name: "IMGPROXY_" + name, reason: "cannot be written to \(url.path): \(error)")
        }
        return url.path
    }
}
