import Foundation
import OspreyServer

/// Which URLs `/thumb` may fetch: only the demo's own origin (or its upstream), matched
/// exactly by scheme, host and port, plus origins its configuration lists. A caller can
/// never make the demo fetch another loopback, link-local or private address: such a URL is
/// refused unless it is one of those configured origins exactly.
struct OriginPolicy: Sendable {
    /// `scheme://host:port`, lowercased, with the default port made explicit.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    let allowed: Set<String>

    init(allowing origins: [URL]) {
        allowed = Set(origins.compactMap(Self.origin(of:)))
    }

    /// Why `url` is refused, or `nil` when it may be fetched.
    func refusal(for url: URL) -> String? {
        guard let origin = Self.origin(of: url) else { return "only http and https URLs can be fetched" }
        if allowed.contains(origin) { return nil }
        if let host = url.host, SourcePolicy.isPrivate(host) { return "\(host) is a loopback, link-local or private address" }
        return "\(origin) is not an allowed origin"
    }
}
