#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Ports on 127.0.0.1 for the servers tests start.
public enum LoopbackPort {
    /// A port the kernel just handed out and that nothing holds now.
    public static func free() throws -> Int {
        let held = try hold()
        close(held.descriptor)
        return held.port
    }

    /// A socket bound to a fresh port and not listening, as an outgoing connection holds its
    /// local port: a server cannot bind the port until `descriptor` is closed.
    public static func hold() throws -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { close(fd) }
            throw LoopbackPortError.noFreePort
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether something accepts connections on `port` now.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// Why no port could be had.
public enum LoopbackPortError: Error {
    case noFreePort
}
