import CCurl
import CCurlShims
import Foundation
import OspreyDomain

/// What a transfer checks on the event loop: the address of every connection it opens,
/// and every redirect's target before libcurl follows it.
struct SourceGuard: Sendable {
    let addressPolicy: AddressPolicy?
    let sourceFilter: (@Sendable (URL) -> SourceRefusal?)?

    /// What may happen to a redirect.
    enum Verdict: Equatable {
        case follow
        case refuse(SourceRefusal)
        /// From https down to http.
        case insecure(target: String)
    }

    /// Why the connection `easy` is about to open to `address` is refused, or `nil`.
    func refusal(connectingTo address: IPAddress, easy: UnsafeMutableRawPointer) -> SourceRefusal? {
        guard let policy = addressPolicy, policy.refusal(connectingTo: address, host: nil) != nil else { return nil }
        // The host is read only for an address the categories refuse: a trusted host may pass.
        var url: UnsafeMutablePointer<CChar>?
        osp_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &url)
        let host = url.flatMap { Self.resolve(String(cString: $0), against: nil) }?.host
        return policy.refusal(connectingTo: address, host: host)
    }

    /// What to do with a redirect to `location` from the transfer on `easy`: its target is
    /// worked out by libcurl's own URL parser, as libcurl will follow it.
    func verdict(forRedirectTo location: String, easy: UnsafeMutableRawPointer) -> Verdict {
        var current: UnsafeMutablePointer<CChar>?
        osp_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &current)
        guard let base = current.map({ String(cString: $0) }), let target = Self.resolve(location, against: base),
              let url = URL(string: target.url) else { return .refuse(.notAllowed) }
        guard target.scheme == "http" || target.scheme == "https" else { return .refuse(.scheme) }
        if target.scheme == "http" && base.lowercased().hasPrefix("https:") { return .insecure(target: target.url) }
        if let refusal = sourceFilter?(url) ?? addressPolicy?.refusal(forHost: target.host) { return .refuse(refusal) }
        return .follow
    }

    /// `location` made absolute against `base` by libcurl's URL API, with the flags
    /// libcurl's own redirect code uses; `nil` when libcurl cannot parse it.
    static func resolve(_ location: String, against base: String?) -> (url: String, scheme: String, host: String)? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        if let base, curl_url_set(handle, CURLUPART_URL, base, 0) != CURLUE_OK { return nil }
        guard curl_url_set(handle, CURLUPART_URL, location, UInt32(CURLU_URLENCODE | CURLU_ALLOW_SPACE)) == CURLUE_OK else { return nil }
        func part(_ what: CURLUPart) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, what, &value, 0) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let url = part(CURLUPART_URL), let scheme = part(CURLUPART_SCHEME)?.lowercased() else { return nil }
        return (url, scheme, part(CURLUPART_HOST) ?? "")
    }
}
