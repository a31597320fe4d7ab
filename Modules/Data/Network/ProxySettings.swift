import Foundation
import OspreyDomain

/// The proxies sources are fetched through, read as Go's and curl's tools read
/// `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY`.
///
/// ```swift
/// var network = CurlDataLoader.Configuration()
/// network.proxy = ProxySettings(environment: ProcessInfo.processInfo.environment)
/// ```
///
/// With an ``AddressPolicy`` too, the loader resolves each source's host itself, checks the
/// address, and asks the proxy for a tunnel to that address (`CONNECT 203.0.113.7:443`), so
/// a proxy is no way around the policy; it then follows redirects itself, each checked alike.
public struct ProxySettings: Hashable, Sendable {
    /// The proxy for `http` sources, such as `http://proxy.internal:3128`; `nil`: none.
    public var httpProxy: String?
    /// The proxy for `https` sources; `nil`: none.
    public var httpsProxy: String?
    /// Hosts reached directly: `*` (all), names (`example.com` and its subdomains,
    /// `.example.com` its subdomains only), addresses and CIDR blocks, each with an optional
    /// `:port`. `localhost` and loopback addresses are always reached directly.
    public var noProxy: [String]

    /// Settings with the proxies given.
    public init(httpProxy: String? = nil, httpsProxy: String? = nil, noProxy: [String] = []) {
        self.httpProxy = httpProxy.flatMap(Self.withScheme)
        self.httpsProxy = httpsProxy.flatMap(Self.withScheme)
        self.noProxy = noProxy.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The settings `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (or their lowercase names)
    /// describe; `nil` when neither proxy is set.
    public init?(environment: [String: String]) {
        func value(_ name: String) -> String? {
            (environment[name] ?? environment[name.lowercased()]).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard value("HTTP_PROXY") != nil || value("HTTPS_PROXY") != nil else { return nil }
        self.init(httpProxy: value("HTTP_PROXY"), httpsProxy: value("HTTPS_PROXY"),
                  noProxy: value("NO_PROXY")?.split(separator: ",").map(String.init) ?? [])
    }

    /// The proxy a request for `url` goes through, or `nil` when it goes directly.
    public func proxy(for url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        guard let proxy = scheme == "https" ? httpsProxy : scheme == "http" ? httpProxy : nil else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return goesDirectly(host: AddressPolicy.normalized(host), port: port) ? nil : proxy
    }

    private func goesDirectly(host: String, port: Int) -> Bool {
        let address = IPAddress(host)
        if host == "localhost" || address?.category == .loopback { return true }
        return noProxy.contains { entry in
            if entry == "*" { return true }
            let (pattern, entryPort) = Self.splitPort(entry)
            if let entryPort, entryPort != port { return false }
            let name = AddressPolicy.normalized(pattern)
            if let address, let block = Self.block(name) { return Self.address(address, isIn: block) }
            if name.hasPrefix("*.") || name.hasPrefix(".") { return host.hasSuffix(name.drop { $0 == "*" }) }
            return host == name || host.hasSuffix("." + name)
        }
    }

    /// `host:port`, `[v6]:port` or a bare host, address or block; the port `nil` when none.
    private static func splitPort(_ entry: String) -> (String, Int?) {
        if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
            let rest = entry[entry.index(after: close)...]
            return (String(entry[...close]), rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
        }
        let colons = entry.filter { $0 == ":" }.count
        guard colons == 1, let colon = entry.firstIndex(of: ":") else { return (entry, nil) }
        return (String(entry[..<colon]), Int(entry[entry.index(after: colon)...]))
    }

    /// An address or CIDR block from `text`, as `(network, prefix length)`.
    private static func block(_ text: String) -> (address: IPAddress, bits: Int)? {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let network = IPAddress(String(first)) else { return nil }
        let bits = parts.count == 2 ? Int(parts[1]) : network.bytes.count * 8
        guard let bits, (0...network.bytes.count * 8).contains(bits) else { return nil }
        return (network, bits)
    }

    private static func address(_ address: IPAddress, isIn block: (address: IPAddress, bits: Int)) -> Bool {
        guard address.bytes.count == block.address.bytes.count else { return false }
        for bit in 0..<block.bits where (address.bytes[bit / 8] ^ block.address.bytes[bit / 8]) & (0x80 >> UInt8(bit % 8)) != 0 {
            return false
        }
        return true
    }

    /// A proxy without a scheme is an http one, as Go and curl read it.
    private static func withScheme(_ proxy: String) -> String? {
        let trimmed = proxy.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        return trimmed.contains("://") ? trimmed : "http://" + trimmed
    }
}
