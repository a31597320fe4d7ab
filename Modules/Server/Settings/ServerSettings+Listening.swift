import Foundation
import Logging

extension ServerSettings {
    /// Where the server listens, how long it waits, how much it takes on, where it logs.
    static let listening: [ServerSetting] = [
        ServerSetting("bind", imgproxy: ["IMGPROXY_BIND"], .value("HOST:PORT"), "The address and port to listen on; :PORT listens on every address.") {
            (input) throws(ServerSettingError) in (input.server.host, input.server.port) = try input.address()
        },
        ServerSetting("host", .value("HOST"), "The address to listen on.", default: { $0.host }) {
            (input) throws(ServerSettingError) in input.server.host = input.text
        },
        ServerSetting("port", imgproxy: ["PORT"], .value("PORT"), "The port; 0 lets the system choose.", default: { "\($0.port)" }) {
            (input) throws(ServerSettingError) in
            // imgproxy's PORT listens on every address, and gives way to its BIND.
            if input.source == .imgproxy {
                guard input.other("bind") == nil else { return }
                input.server.host = "0.0.0.0"
            }
            input.server.port = try input.int(0...65535)
        },
        ServerSetting("idle-timeout", imgproxy: ["IMGPROXY_READ_REQUEST_TIMEOUT", "IMGPROXY_READ_TIMEOUT"], .value("SECONDS"),
                      "Seconds a connection may wait for a whole request head, idle or trickling bytes, before it is closed.",
                      default: { seconds($0.idleTimeout) }) { (input) throws(ServerSettingError) in input.server.idleTimeout = try input.seconds() },
        ServerSetting("timeout", imgproxy: ["IMGPROXY_TIMEOUT", "IMGPROXY_WRITE_TIMEOUT"], .value("SECONDS"),
                      "Seconds a request may take in all; past it, its work is cancelled and it is answered 503.",
                      default: { $0.service.timeout.map(seconds) }) { (input) throws(ServerSettingError) in input.service.timeout = try input.seconds() },
        ServerSetting("download-timeout", imgproxy: ["IMGPROXY_DOWNLOAD_TIMEOUT"], .value("SECONDS"), "Seconds a source's download may take.",
                      default: { seconds($0.service.downloadTimeout) }) {
            (input) throws(ServerSettingError) in input.service.downloadTimeout = try input.seconds()
        },
        ServerSetting("workers", imgproxy: ["IMGPROXY_WORKERS", "IMGPROXY_CONCURRENCY"], .value("N"),
                      "Threads decoding, processing and encoding images at once, apart from those answering.",
                      default: { _ in "one per core" }) {
            (input) throws(ServerSettingError) in input.service.osprey.maxConcurrentDecodes = try input.int(1...4096)
        },
        ServerSetting("max-queue", imgproxy: ["IMGPROXY_REQUESTS_QUEUE_SIZE"], .value("N"),
                      "Image requests served or waiting at once; past it, 429 with Retry-After.", default: { "\($0.maxQueue)" }) {
            (input) throws(ServerSettingError) in
            guard input.source == .imgproxy else { return input.server.maxQueue = try input.int(1...1_000_000) }
            // imgproxy's queue is the requests waiting beside those its workers serve.
            let queue = try input.int(0...1_000_000)
            if queue > 0 { input.server.maxQueue = queue + input.service.osprey.maxConcurrentDecodes }
            else { input.notices.append("\(input.name)=0 (no bound) is not honoured: Osprey keeps its bound of \(input.server.maxQueue) requests") }
        },
        ServerSetting("max-connections", imgproxy: ["IMGPROXY_MAX_CLIENTS"], .value("N"),
                      "Connections served at once; past it, new ones wait in the listen queue.", default: { "\($0.maxConnections)" }) {
            (input) throws(ServerSettingError) in
            let clients = try input.int((input.source == .imgproxy ? 0 : 1)...1_000_000)
            if clients > 0 { input.server.maxConnections = clients }
            else { input.notices.append("\(input.name)=0 (no bound) is not honoured: Osprey keeps its bound of \(input.server.maxConnections)") }
        },
        ServerSetting("path-prefix", imgproxy: ["IMGPROXY_PATH_PREFIX"], .value("PATH"),
                      "Where the image routes and health checks are mounted, such as /images; none: the root.") {
            (input) throws(ServerSettingError) in input.server.pathPrefix = input.source == .imgproxy ? input.urlPath() : input.text
        },
        ServerSetting("health-check-path", imgproxy: ["IMGPROXY_HEALTH_CHECK_PATH"], .value("PATH"), "A path answered ok while the server runs, beside /health.") {
            (input) throws(ServerSettingError) in input.server.healthPath = input.source == .imgproxy ? input.urlPath() : input.text
        },
        ServerSetting("metrics-bind", imgproxy: ["IMGPROXY_PROMETHEUS_BIND"], .value("HOST:PORT"),
                      "Where /metrics is served in Prometheus' format, apart from the public port; none: no metrics.") {
            (input) throws(ServerSettingError) in
            let (host, port) = try input.address()
            input.server.metrics = .init(host: host, port: port)
        },
        ServerSetting("metrics-namespace", imgproxy: ["IMGPROXY_PROMETHEUS_NAMESPACE"], .value("NAME"), "A prefix of every metric's name, NAME_.") {
            (input) throws(ServerSettingError) in input.server.metricsNamespace = input.text
        },
        ServerSetting("log-format", imgproxy: ["IMGPROXY_LOG_FORMAT"], .value("FORMAT"), "Logs as text or json.", default: { $0.logsJSON ? "json" : "text" }) {
            (input) throws(ServerSettingError) in
            // imgproxy's structured and gcp formats are JSON too; other names are its text.
            let name = input.text.lowercased()
            if input.source == .imgproxy { return input.server.logsJSON = ["json", "structured", "gcp"].contains(name) }
            guard ["json", "text"].contains(name) else { throw input.failure("\(input.text): give text or json") }
            input.server.logsJSON = name == "json"
        },
        ServerSetting("log-level", imgproxy: ["IMGPROXY_LOG_LEVEL"], .value("LEVEL"), "The least level logged: debug, info, warn or error.",
                      default: { "\($0.logLevel)" }) {
            (input) throws(ServerSettingError) in
            let levels: [String: Logger.Level] = ["debug": .debug, "info": .info, "warn": .warning, "warning": .warning, "error": .error]
            guard let level = levels[input.text.lowercased()] else { throw input.failure("\(input.text): give debug, info, warn or error") }
            input.server.logLevel = level
        },
        ServerSetting("gallery", .value("FOLDER"),
                      "Serve the demo: a page of this folder's images at /, the folder itself at /origin/ (which becomes an allowed source).") {
            (input) throws(ServerSettingError) in input.server.gallery = URL(fileURLWithPath: input.text, isDirectory: true)
        },
    ]

    /// A duration in seconds as help shows it.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
    }
}
