import Foundation
import OspreyDomain

/// Which URLs `/thumb` may fetch: only the demo's own origin (or its upstream), matched
/// exactly by scheme, host and port, plus origins its configuration lists. Their hosts are
/// trusted wherever they resolve; any other URL is refused, and the loader checks every
/// redirect's target here and every connection's address against `addressPolicy`.
struct OriginPolicy: Sendable {
    /// `scheme://host:port`, lowercased, with the default port made explicit.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    let allowed: Set<String>
    /// For the loader: public addresses, and the allowed origins' hosts wherever they are.
    let addressPolicy: AddressPolicy

    init(allowing origins: [URL]) {
        allowed = Set(origins.compactMap(Self.origin(of:)))
        addressPolicy = AddressPolicy(trustedHosts: Set(origins.compactMap(\.host)))
    }

    /// Why `url` is refused, or `nil` when it may be fetched.
    func refusal(for url: URL) -> SourceRefusal? {
        guard let origin = Self.origin(of: url) else { return .scheme }
        if allowed.contains(origin) { return nil }
        return addressPolicy.refusal(forHost: url.host ?? "") ?? .notAllowed
    }
}
