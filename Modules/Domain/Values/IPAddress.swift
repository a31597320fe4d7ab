#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, and the kind of network it reaches.
///
/// ```swift
/// IPAddress("127.1")?.category             // .loopback
/// IPAddress("::ffff:10.0.0.1")?.category   // .private
/// ```
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// An address from its bytes: 4 for IPv4, 16 for IPv6; `nil` for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A numeric host as the system's resolver reads it: IPv4 in every spelling `inet_aton`
    /// takes (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`), IPv6 with or without
    /// brackets. `nil` for a host name.
    public init?(_ text: String) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if let zone = host.firstIndex(of: "%") { host = host[..<zone] }  // fe80::1%eth0
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        let text = String(host)
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        } else {
            var address = in_addr()
            guard inet_aton(text, &address) != 0 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
        }
    }

    /// The kinds of network an address can reach.
    public enum Category: String, Hashable, Sendable, CaseIterable {
        /// The internet at large.
        case `public`
        /// This machine: 127.0.0.0/8, ::1, and the unspecified 0.0.0.0/8 and ::, which
        /// connect to this machine too.
        case loopback
        /// Private networks: RFC 1918 (10/8, 172.16/12, 192.168/16), carrier-grade NAT
        /// (100.64/10), unique local fc00::/7 and site-local fec0::/10.
        case `private`
        /// The local link: 169.254/16 (cloud metadata services live here) and fe80::/10.
        case linkLocal = "link-local"
        /// Multicast, broadcast and reserved ranges: 224/4, 240/4, ff00::/8.
        case reserved
    }

    /// The kind of network this address reaches. An IPv6 address that carries an IPv4 one
    /// (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is
    /// the kind of its IPv4 address.
    public var category: Category {
        bytes.count == 4 ? Self.category(ipv4: bytes) : Self.category(ipv6: bytes)
    }

    private static func category(ipv4 b: [UInt8]) -> Category {
        switch (b[0], b[1]) {
        case (0, _), (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .private
        case (169, 254): return .linkLocal
        case (224..., _): return .reserved
        default: return .public
        }
    }

    private static func category(ipv6 b: [UInt8]) -> Category {
        let embedded = Array(b[12..<16])
        if b[0..<10].allSatisfy({ $0 == 0 }) {
            if b[10] == 0xFF && b[11] == 0xFF { return category(ipv4: embedded) }  // mapped
            if b[10] == 0 && b[11] == 0 {
                if b[12..<15].allSatisfy({ $0 == 0 }) && b[15] <= 1 { return .loopback }  // :: and ::1
                return category(ipv4: embedded)  // compatible
            }
        }
        if b[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return category(ipv4: embedded) }  // NAT64
        if b[0] == 0 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B && b[4] == 0 && b[5] == 1 { return .private }  // local NAT64
        switch (b[0], b[1] & 0xC0) {
        case (0xFF, _): return .reserved
        case (0xFE, 0x80): return .linkLocal
        case (0xFE, 0xC0): return .private
        case (0xFC...0xFD, _): return .private
        default: return .public
        }
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { raw in
            _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
