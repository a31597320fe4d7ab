#if canImport(Glibc)
import Glibc
#endif
import CHiredis
import Foundation

/// One blocking hiredis connection. Not thread-safe: the pool lends it to one caller at a time.
final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects, sets the command timeout and selects `database`.
    /// - Throws: ``RedisFailure`` when Redis cannot be reached in `connectTimeout` or refuses.
    init(host: String, port: Int, database: Int, connectTimeout: Duration, commandTimeout: Duration) throws(RedisFailure) {
        guard let context = redisConnectWithTimeout(host, Int32(port), Self.timeval(connectTimeout)) else {
            throw .unreachable("hiredis could not allocate a context")
        }
        // From here on a throw still runs `deinit`, which frees the context.
        self.context = context
        guard context.pointee.err == 0 else { throw .unreachable(Self.errorString(context)) }
        guard redisSetTimeout(context, Self.timeval(commandTimeout)) == REDIS_OK else {
            throw .unreachable("could not set the command timeout")
        }
        if database != 0, case .error(let message) = try command(["SELECT", RedisArgument(database)]) {
            throw .refused(message)
        }
    }

    deinit { redisFree(context) }

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
        let raw = pointers.withUnsafeMutableBufferPointer { argv in
            lengths.withUnsafeMutableBufferPointer { argvlen in
                redisCommandArgv(context, Int32(argv.count), argv.baseAddress, argvlen.baseAddress)
            }
        }
        guard let raw else { throw .unreachable(Self.errorString(context)) }
        defer { freeReplyObject(raw) }
        return RedisReply(raw.assumingMemoryBound(to: redisReply.self))
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    private static func errorString(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
