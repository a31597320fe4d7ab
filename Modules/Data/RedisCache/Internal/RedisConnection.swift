#if canImport(Glibc)
import Glibc
#endif
import CHiredis
import CLibraryLoader
import CRedisTLS
import Foundation

/// One blocking connection, plain (hiredis) or TLS (OpenSSL carrying hiredis's commands and
/// replies). Not thread-safe: the pool lends it to one caller at a time.
final class RedisConnection: @unchecked Sendable {
    private enum Transport {
        case plain(UnsafeMutablePointer<redisContext>)
        case tls(OpaquePointer)
    }

    private let transport: Transport

    /// Connects, sets the command timeout, authenticates and selects the database.
    /// - Throws: ``RedisFailure`` when Redis cannot be reached in the connect timeout, its
    ///   certificate is not trusted, or it refuses the password or database.
    init(_ endpoint: RedisConnectionPool.Endpoint) throws(RedisFailure) {
        guard osp_hiredis_available() == 1 else { throw .unreachable(Self.unloaded("libhiredis", osp_hiredis_load_error())) }
        if endpoint.usesTLS {
            guard osp_ssl_available() == 1 else { throw .unreachable(Self.unloaded("libssl", osp_ssl_load_error())) }
            var message = [CChar](repeating: 0, count: 256)
            let connection = message.withUnsafeMutableBufferPointer { buffer in
                osp_redis_tls_connect(endpoint.host, Int32(endpoint.port), Self.milliseconds(endpoint.connectTimeout),
                                      Self.milliseconds(endpoint.commandTimeout), endpoint.certificateAuthorities,
                                      buffer.baseAddress, buffer.count)
            }
            guard let connection else { throw .unreachable(String(cString: message.map { UInt8(bitPattern: $0) } + [0])) }
            transport = .tls(connection)
        } else {
            guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), Self.timeval(endpoint.connectTimeout)) else {
                throw .unreachable("hiredis could not allocate a context")
            }
            // From here on a throw still runs `deinit`, which frees the context.
            transport = .plain(context)
            guard context.pointee.err == 0 else { throw .unreachable(Self.errorString(context)) }
            guard redisSetTimeout(context, Self.timeval(endpoint.commandTimeout)) == REDIS_OK else {
                throw .unreachable("could not set the command timeout")
            }
        }
        if let password = endpoint.password {
            let arguments = ["AUTH"] + (endpoint.username.map { [RedisArgument($0)] } ?? []) + [RedisArgument(password)]
            // Refused credentials make Redis as unusable as an unreachable one, until it is tried again.
            if case .error(let message) = try command(arguments) { throw .unreachable("Redis refused the password: \(message)") }
        }
        if endpoint.database != 0, case .error(let message) = try command(["SELECT", RedisArgument(endpoint.database)]) {
            throw .refused(message)
        }
    }

    deinit {
        switch transport {
        case .plain(let context): redisFree(context)
        case .tls(let connection): osp_redis_tls_free(connection)
        }
    }

    /// Sends one command (binary-safe arguments) and waits for its reply.
    /// - Throws: ``RedisFailure/unreachable(_:)`` on a broken or timed-out connection; the
    ///   connection must then be dropped.
    func command(_ arguments: [RedisArgument]) throws(RedisFailure) -> RedisReply {
        let buffers = arguments.map(\.bytes)
        var lengths = buffers.map(\.count)
        let storage = buffers.map { bytes -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) }
            }
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        var pointers = storage.map { UnsafePointer<CChar>?($0) }
        var message = [CChar](repeating: 0, count: 256)
        let raw = pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeMutableBufferPointer { argvlen -> UnsafeMutableRawPointer? in
                switch transport {
                case .plain(let context):
                    return redisCommandArgv(context, Int32(argv.count), argv.baseAddress, argvlen.baseAddress)
                case .tls(let connection):
                    return message.withUnsafeMutableBufferPointer { buffer in
                        osp_redis_tls_command(connection, Int32(argv.count), argv.baseAddress, argvlen.baseAddress, buffer.baseAddress, buffer.count)
                    }
                }
            }
        }
        guard let raw else {
            switch transport {
            case .plain(let context): throw .unreachable(Self.errorString(context))
            case .tls: throw .unreachable(String(cString: message.map { UInt8(bitPattern: $0) } + [0]))
            }
        }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: Int64(duration / .milliseconds(1)))
    }

    private static func unloaded(_ library: String, _ error: UnsafePointer<CChar>?) -> String {
        "\(library) cannot be loaded: \(error.map { String(cString: $0) } ?? "unknown error")"
    }

    private static func errorString(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
