import Foundation
import Osprey

/// osprey-server's settings in one table (``table``), read in increasing precedence from
/// an imgproxy environment (``ImgproxyEnvironment``), the `OSPREY_` variables and the
/// command line, onto ``defaults``. Reading has no effects: it reads the files some settings
/// name (the presets file) and nothing else; ``buildApplication(_:)`` opens, decodes and
/// starts what the result describes.
///
/// ```swift
/// let (server, notices) = try ServerSettings.read(arguments: ["--port", "8080", "--allow-unsigned"])
/// ```
public enum ServerSettings {
    /// Every setting, in the order values are applied within a source.
    public static let table: [ServerSetting] = listening + caches + signing + sources + limits + formats + answers

    /// osprey-server's defaults: the library's, with a disk cache of its own (2 GB under the
    /// user's cache folder) and a memory cache of reduced decodes (32 MB; answers are kept apart).
    public static var defaults: ServerConfiguration {
        var osprey = OspreyConfiguration(cacheDirectory: DiskCache.Configuration.defaultDirectory.deletingLastPathComponent()
            .appendingPathComponent("osprey-server", isDirectory: true))
        osprey.diskLimit = 2_048_000_000
        osprey.memoryLimit = 32_000_000
        return ServerConfiguration(service: .init(osprey: osprey))
    }

    /// The server `arguments` and `environment` describe over `defaults`.
    /// - Returns: The server, and what start-up should tell the operator once.
    /// - Throws: ``ServerSettingError`` naming the setting as it was given.
    public static func read(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                            defaults: ServerConfiguration = defaults) throws(ServerSettingError) -> (ServerConfiguration, notices: [String]) {
        var server = defaults
        var notices = try ImgproxyEnvironment(environment).apply(to: &server)
        var osprey: [String: (String, [String])] = [:]
        for setting in table {
            if let name = setting.ospreyName, let value = environment["OSPREY_" + name], !value.isEmpty { osprey[setting.id] = ("OSPREY_" + name, [value]) }
        }
        try apply(osprey, from: .osprey, to: &server, notices: &notices, environment: environment)
        try apply(try flags(arguments), from: .flag, to: &server, notices: &notices, environment: environment)
        try readProxy(environment, into: &server)
        return (server, notices)
    }

    /// `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`, as imgproxy (Go) reads them: sources go
    /// through the proxy, their addresses still checked (``ProxySettings``).
    static func readProxy(_ environment: [String: String], into server: inout ServerConfiguration) throws(ServerSettingError) {
        guard let proxy = ProxySettings(environment: environment) else { return }
        for (name, url) in [("HTTP_PROXY", proxy.httpProxy), ("HTTPS_PROXY", proxy.httpsProxy)] {
            guard let url else { continue }
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), parsed.host?.isEmpty == false,
                  ["http", "https", "socks4", "socks4a", "socks5", "socks5h"].contains(scheme) else {
                throw ServerSettingError(name: name, reason: "not a proxy URL (http://, https:// or socks5://HOST:PORT)")
            }
        }
        server.service.osprey.network.proxy = proxy
    }

    /// Applies the values one source gives, by setting id, in the table's order.
    static func apply(_ given: [String: (name: String, values: [String])], from source: SettingInput.Source, to server: inout ServerConfiguration,
                      notices: inout [String], environment: [String: String],
                      unset: ((ServerSetting, inout SettingInput) throws(ServerSettingError) -> Void)? = nil) throws(ServerSettingError) {
        let values = given.mapValues(\.values)
        for setting in table {
            let named = given[setting.id]
            var input = SettingInput(server: server, notices: notices, source: source, name: named?.name ?? setting.id, values: named?.values ?? [],
                                     given: values, environment: environment)
            if named != nil { try setting.apply(&input) } else if let unset { try unset(setting, &input) } else { continue }
            (server, notices) = (input.server, input.notices)
        }
    }

    /// The command line's values by setting: `--name VALUE`, `--name=VALUE`, a toggle alone.
    static func flags(_ arguments: [String]) throws(ServerSettingError) -> [String: (String, [String])] {
        var given: [String: (String, [String])] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else { throw ServerSettingError(name: argument, reason: "not an option; settings are --name VALUE") }
            let parts = argument.dropFirst(2).split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first, let setting = table.first(where: { $0.flag == name }) else {
                throw ServerSettingError(name: argument, reason: "no such option (osprey-server --help lists them)")
            }
            var value: String
            if parts.count == 2 {
                value = parts[1]
            } else if setting.kind == .toggle {
                value = "true"
            } else {
                guard let next = rest.popFirst() else { throw ServerSettingError(name: argument, reason: "give it a value") }
                value = next
            }
            given[setting.id, default: ("--" + name, [])].1.append(value)
        }
        return given
    }
}
