import Foundation
import OspreyDomain

/// Which source URLs a server may fetch: with an allow-list, only URLs under one of its
/// entries — same scheme, host and port, and a path (dot segments removed) under the entry's —
/// and never one carrying a user name or password; without one, any http or https URL. Hosts
/// the prefixes name are trusted wherever they resolve; any other host must resolve to a
/// public address unless its category is opened. The URL's text is checked here, first; the
/// loader checks the address on connecting (`addressPolicy`) and every redirect's target
/// (`refusal(for:)`). An `s3://` source is checked as the object it names (`S3Location`).
public struct SourcePolicy: Sendable {
    /// The URL prefixes sources must start with; empty allows any http or https URL.
    public let allowedPrefixes: [String]
    /// For the loader: the categories opened, and the hosts of the allowed prefixes trusted.
    public let addressPolicy: AddressPolicy
    private let allowed: [SourceOrigin]

    /// A policy allowing URLs under `allowedPrefixes` (any public URL when empty), and hosts
    /// that resolve to the address `categories` besides public ones.
    public init(allowedPrefixes: [String] = [], allowing categories: Set<IPAddress.Category> = []) {
        self.allowedPrefixes = allowedPrefixes
        allowed = allowedPrefixes.compactMap(SourceOrigin.init)
        // A host the list names is trusted wherever it resolves; one named by a wildcard is not.
        let hosts = allowedPrefixes.filter { $0.lowercased().hasPrefix("http") }.compactMap { URL(string: $0)?.host }
            .filter { !$0.isEmpty && !$0.contains("*") }
        addressPolicy = AddressPolicy(allowing: categories, trustedHosts: Set(hosts))
    }

    /// Why a `local://` or `s3://` source is refused by the allow-list, or `nil`. An `s3://`
    /// URL that is not a bucket and a key is refused whatever the list says.
    public func refusal(forStoreSource url: URL) -> SourceRefusal? {
        if url.user != nil || url.password != nil { return .credentials }
        var url = url
        if let scheme = url.scheme?.lowercased(), ["s3", "gs", "abs"].contains(scheme) {
            do {
                url = try S3Location(url, scheme: scheme).url
            } catch {
                return error
            }
        }
        return allowedPrefixes.isEmpty || allowed.contains(where: { $0.contains(url) }) ? nil : .notAllowed
    }

    /// Why `url` is refused, or `nil` when it may be fetched.
    public func refusal(for url: URL) -> SourceRefusal? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            return .scheme
        }
        if url.user != nil || url.password != nil { return .credentials }
        if allowed.contains(where: { $0.contains(url) }) { return nil }
        if !allowedPrefixes.isEmpty { return .notAllowed }
        return addressPolicy.refusal(forHost: host)
    }
}
