import Foundation
import HTTPTypes

/// Which of a client's cookies go with its source's request, as imgproxy's
/// `IMGPROXY_COOKIE_PASSTHROUGH`, `IMGPROXY_COOKIE_PASSTHROUGH_ALL` and
/// `IMGPROXY_COOKIE_BASE_URL` decide: a cookie is taken to belong to the address the client
/// asked (the base URL, else `X-Forwarded-Host`, else `Host`), host only, and goes to a
/// source on that host (any port) under the base URL's default path; with `all`, every
/// cookie goes to every http and https source.
public struct CookiePassthrough: Hashable, Sendable {
    /// Whether cookies are passed through at all (off by default, as imgproxy's).
    public var enabled: Bool
    /// Every cookie to every source, whatever its host.
    public var all: Bool
    /// The URL the client's cookies are taken to be scoped to; `nil`: the request's host.
    public var baseURL: URL?

    public init(enabled: Bool = false, all: Bool = false, baseURL: URL? = nil) {
        self.enabled = enabled
        self.all = all
        self.baseURL = baseURL
    }

    /// The `Cookie` value sent to `source` for a client request with `headers` to
    /// `authority` (its `Host`); `nil` when none applies.
    func cookie(for source: URL, headers: HTTPFields, authority: String?) -> String? {
        guard enabled, ["http", "https"].contains(source.scheme?.lowercased() ?? "") else { return nil }
        let pairs = headers[values: .cookie].flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("=") && !$0.hasPrefix("=") }
        guard !pairs.isEmpty else { return nil }
        if !all {
            let scope: (host: String?, path: String)
            if let baseURL {
                scope = (baseURL.host, Self.defaultPath(baseURL.path))
            } else {
                scope = ((headers[.init("X-Forwarded-Host")!] ?? authority).map(Self.hostWithoutPort), "/")
            }
            guard let host = scope.host, let sourceHost = source.host,
                  Self.hostWithoutPort(sourceHost).lowercased() == Self.hostWithoutPort(host).lowercased(),
                  Self.path(source.path.isEmpty ? "/" : source.path, isUnder: scope.path) else { return nil }
        }
        return pairs.joined(separator: "; ")
    }

    /// RFC 6265's default path of a cookie set for `path`: up to its last `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265's path-match.
    static func path(_ path: String, isUnder cookiePath: String) -> Bool {
        guard path.hasPrefix(cookiePath) else { return false }
        return path.count == cookiePath.count || cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// `host`, `host:port`, `[v6]:port` without the port and brackets.
    static func hostWithoutPort(_ host: String) -> String {
        let trimmed = host.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") { return String(trimmed[trimmed.index(after: trimmed.startIndex)..<close]) }
        if trimmed.filter({ $0 == ":" }).count == 1, let colon = trimmed.firstIndex(of: ":") { return String(trimmed[..<colon]) }
        return trimmed
    }
}
