import Foundation
import OspreyDomain

/// Which source URLs a server may fetch: with an allow-list, only URLs starting with one of
/// its prefixes; without one, any http or https URL. Hosts the prefixes name are trusted
/// wherever they resolve; any other host must resolve to a public address unless its
/// category is opened. The URL's text is checked here, first; the loader checks the
/// address on connecting (`addressPolicy`) and every redirect's target (`refusal(for:)`).
public struct SourcePolicy: Sendable {
    /// The URL prefixes sources must start with; empty allows any http or https URL.
    public let allowedPrefixes: [String]
    /// For the loader: the categories opened, and the allowed prefixes' hosts trusted.
    public let addressPolicy: AddressPolicy

    /// A policy allowing URLs under `allowedPrefixes` (any public URL when empty), and hosts
    /// that resolve to the address `categories` besides public ones.
    public init(allowedPrefixes: [String] = [], allowing categories: Set<IPAddress.Category> = []) {
        self.allowedPrefixes = allowedPrefixes
        let hosts = allowedPrefixes.compactMap { URL(string: $0)?.host }.filter { !$0.isEmpty }
        addressPolicy = AddressPolicy(allowing: categories, trustedHosts: Set(hosts))
    }

    /// Why `url` is refused, or `nil` when it may be fetched.
    public func refusal(for url: URL) -> SourceRefusal? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            return .scheme
        }
        let text = url.absoluteString
        if allowedPrefixes.contains(where: { text.hasPrefix($0) }) { return nil }
        if !allowedPrefixes.isEmpty { return .notAllowed }
        return addressPolicy.refusal(forHost: host)
    }
}
