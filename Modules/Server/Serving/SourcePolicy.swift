import Foundation

/// Which source URLs a server may fetch: with an allow-list, only URLs starting with one of
/// its prefixes; without one, any http or https URL. Either way a loopback, link-local or
/// private address is refused unless an allowed prefix names it.
package struct SourcePolicy: Sendable {
    package let allowedPrefixes: [String]

    package init(allowedPrefixes: [String]) {
        self.allowedPrefixes = allowedPrefixes
    }

    /// Why `url` is refused, or `nil` when it may be fetched.
    package func refusal(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            return "only http and https URLs can be fetched"
        }
        let text = url.absoluteString
        if allowedPrefixes.contains(where: { text.hasPrefix($0) }) { return nil }
        if Self.isPrivate(host) { return "\(host) is a loopback, link-local or private address" }
        return allowedPrefixes.isEmpty ? nil : "\(text) is not under an allowed origin"
    }

    /// Loopback, link-local, private and unspecified addresses, and `localhost`.
    package static func isPrivate(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        let parts = host.split(separator: ".").compactMap { UInt8($0) }
        if parts.count == 4 {
            switch (parts[0], parts[1]) {
            case (127, _), (10, _), (0, _), (169, 254), (192, 168): return true
            case (172, 16...31), (100, 64...127): return true
            default: return false
            }
        }
        if host.contains(":") {  // IPv6
            return host == "::1" || host == "::" || host.hasPrefix("fe8") || host.hasPrefix("fe9") || host.hasPrefix("fea")
                || host.hasPrefix("feb") || host.hasPrefix("fc") || host.hasPrefix("fd") || host.hasPrefix("::ffff:")
        }
        return false
    }
}
