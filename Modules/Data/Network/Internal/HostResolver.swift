import Foundation
import OspreyDomain

/// Host names looked up by the loader itself, for a request sent through a proxy under an
/// address policy: the address is checked here and the proxy asked for that address.
enum HostResolver {
    /// The addresses `host` resolves to, the `overrides` (`HOST:PORT:ADDRESS[,ADDRESS]`, as
    /// `CURLOPT_RESOLVE` takes them) first. Looked up on another thread: `getaddrinfo` blocks.
    static func addresses(of host: String, port: Int, overrides: [String]) async -> [IPAddress] {
        if let address = IPAddress(host) { return [address] }
        for entry in overrides {
            let parts = entry.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3, parts[0].lowercased() == host.lowercased(), Int(parts[1]) == port else { continue }
            return parts[2].split(separator: ",").compactMap { IPAddress(String($0)) }
        }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: lookUp(host)) }
        }
    }

    private static func lookUp(_ host: String) -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry?.pointee {
            defer { entry = current.ai_next }
            guard let socketAddress = current.ai_addr else { continue }
            switch current.ai_family {
            case AF_INET:
                socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    var address = $0.pointee.sin_addr
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) })!)
                }
            case AF_INET6:
                socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    var address = $0.pointee.sin6_addr
                    addresses.append(IPAddress(bytes: withUnsafeBytes(of: &address) { Array($0) })!)
                }
            default: continue
            }
        }
        return addresses
    }
}
