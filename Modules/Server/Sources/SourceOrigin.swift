import Foundation

/// One entry of the allow-list, parsed: a source matches when its scheme, host and port are
/// the entry's and its path, with dot segments removed as libcurl removes them before
/// sending, lies under the entry's path. Matching the text instead let
/// `https://images.example.com.evil.com/` and `https://images.example.com@evil.com/` pass an
/// entry `https://images.example.com`, and `…/public/../private/x.jpg` pass `…/public/`.
///
/// A `*` in the entry's host or path matches any run of characters but `/`, as in imgproxy's
/// allowed sources (`https://*.example.com/`, `https://cdn.example.com/*/public/`):
/// still against the parsed host and the path as it will be sent.
struct SourceOrigin: Sendable, Hashable {
    let scheme: String
    let host: String
    let port: Int?
    /// Empty or ending in `/`: a folder; otherwise one path or a folder of that name.
    let path: String

    /// The entry `text`, or `nil` when it has no scheme.
    init?(_ text: String) {
        guard let url = URL(string: text), let parts = Self.parts(of: url) else { return nil }
        (scheme, host, port) = (parts.scheme, parts.host, parts.port)
        path = parts.path == "/" && !text.hasSuffix("/") ? "" : parts.path
    }

    /// Whether `url` lies under this entry. A URL carrying a user name or password never does.
    func contains(_ url: URL) -> Bool {
        guard url.user == nil, url.password == nil, let parts = Self.parts(of: url) else { return false }
        guard parts.scheme == scheme, parts.port == port, Self.matches(host, parts.host[...], wholly: true) else { return false }
        if path.isEmpty || path.hasSuffix("/") { return Self.matches(path, parts.path[...], wholly: false) }
        return Self.matches(path, parts.path[...], wholly: true) || Self.matches(path + "/", parts.path[...], wholly: false)
    }

    /// Whether `text` is `pattern` (`wholly`) or starts with it, a `*` in the pattern standing
    /// for any run of characters but `/`.
    static func matches(_ pattern: String, _ text: Substring, wholly: Bool) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return wholly ? text == pattern : text.hasPrefix(pattern) }
        let head = pattern[..<star], rest = String(pattern[pattern.index(after: star)...])
        guard text.hasPrefix(head) else { return false }
        var tail = text.dropFirst(head.count)
        while true {
            if matches(rest, tail, wholly: wholly) { return true }
            guard let next = tail.first, next != "/" else { return false }
            tail = tail.dropFirst()
        }
    }

    private static func parts(of url: URL) -> (scheme: String, host: String, port: Int?, path: String)? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        let host = (url.host(percentEncoded: false) ?? "").lowercased()
        let port = url.port ?? ["http": 80, "https": 443][scheme]
        return (scheme, host, port, removingDotSegments(url.path(percentEncoded: true)))
    }

    /// RFC 3986's dot-segment removal; `%2e` counts as a dot, since an origin may decode it.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        var endsInFolder = false
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            switch segment.lowercased().replacingOccurrences(of: "%2e", with: ".") {
            case ".": endsInFolder = true
            case "..":
                _ = output.popLast()
                endsInFolder = true
            default:
                output.append(segment)
                endsInFolder = false
            }
        }
        return "/" + output.joined(separator: "/") + (endsInFolder && !output.isEmpty ? "/" : "")
    }
}
