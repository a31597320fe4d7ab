import Foundation
import Osprey

/// An imgproxy deployment's environment (`IMGPROXY_*`, and `PORT` and `AWS_*` as imgproxy
/// reads them), read as imgproxy documents each variable — its units, defaults, list and
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
            } else if Self.known.contains(short) || Self.acceptedAsOspreyDoes[short] != nil {
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
        // Each setting reads the first of its names that is set: the current one, then a deprecated one.
        var given: [String: (name: String, values: [String])] = [:]
        for setting in ServerSettings.table {
            if let name = setting.imgproxyNames.first(where: { environment[$0].map { !$0.isEmpty } ?? false }) {
                given[setting.id] = (name, [environment[name] ?? ""])
            }
        }
        let readsDefaults = !names.isEmpty
        try ServerSettings.apply(given, from: .imgproxy, to: &server, notices: &notices, environment: environment) {
            (setting, input) throws(ServerSettingError) in if readsDefaults { try setting.imgproxyDefault?(&input) }
        }
        return notices
    }

    /// imgproxy's variables (without `IMGPROXY_`) that the settings table reads.
    package static let known: Set<String> =
        Set(ServerSettings.table.flatMap(\.imgproxyNames).filter { $0.hasPrefix("IMGPROXY_") }.map { String($0.dropFirst("IMGPROXY_".count)) })
            .union(acceptedAsOspreyDoes.keys).union(EnvironmentSources.variables)

    /// Whether a refused variable is set to what Osprey cannot do (a switch set off, or a
    /// value Osprey reads the same way, is not).
    private func refuses(_ name: String) -> Bool {
        guard let text = environment["IMGPROXY_" + name], !text.isEmpty else { return false }
        if let accepted = Self.acceptedAsOspreyDoes[name] { return !accepted(text) }
        return SettingInput.goBool(text) ?? true
    }
}
