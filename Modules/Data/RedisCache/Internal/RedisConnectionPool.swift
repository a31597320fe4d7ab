import Foundation
import Logging
import OspreyDomain

/// Lends hiredis connections to one command at a time, at most `size` open, and keeps a slow
/// or absent Redis from stalling anyone.
///
/// Commands block, so they run on a Dispatch queue rather than on Swift's cooperative pool.
/// Every wait is bounded: connecting by the connect timeout, a reply by the command timeout,
/// a free connection by the command timeout too. When Redis cannot be reached or does not
/// answer in time, the pool marks it down for `retryInterval`: until then every command fails
/// at once (no caller waits on a Redis known to be gone), and the first command after it
/// tries again, so the pool recovers by itself when Redis returns. Going down and coming back
/// are logged once each, not once per request.
final class RedisConnectionPool: Sendable {
    struct Endpoint: Sendable {
        var host: String
        var port: Int
        var database: Int
        var connectTimeout: Duration
        var commandTimeout: Duration
        var username: String? = nil
        var password: String? = nil
        var usesTLS = false
        var certificateAuthorities: String? = nil
    }

    private struct State {
        var idle: [RedisConnection] = []
        var open = 0
        var downUntil: ContinuousClock.Instant?
        var reportedDown = false
    }

    private let endpoint: Endpoint
    private let size: Int
    private let retryInterval: Duration
    private let logger: Logger
    private let state = Locked(State())
    private let available = NSCondition()
    private let queue = DispatchQueue(label: "osprey.redis-cache", attributes: .concurrent)

    init(endpoint: Endpoint, size: Int, retryInterval: Duration, logger: Logger) {
        self.endpoint = endpoint
        self.size = max(1, size)
        self.retryInterval = retryInterval
        self.logger = logger
    }

    /// Runs `arguments` as one command on a pooled connection.
    /// - Throws: ``RedisFailure``: `unreachable` when Redis is down, slow or every connection
    ///   stayed busy past the command timeout; `refused` for an error reply.
    func run(_ arguments: [RedisArgument]) async throws(RedisFailure) -> RedisReply {
        let result: Result<RedisReply, RedisFailure> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(RedisFailure) in try self.runBlocking(arguments) }) }
        }
        let reply = try result.get()
        if case .error(let message) = reply { throw .refused(message) }
        return reply
    }

    /// `true` while the pool treats Redis as down.
    var isDown: Bool {
        state.withLock { state in state.downUntil.map { ContinuousClock.now < $0 } ?? false }
    }

    private func runBlocking(_ arguments: [RedisArgument]) throws(RedisFailure) -> RedisReply {
        let connection = try borrow()
        do {
            let reply = try connection.command(arguments)
            giveBack(connection)
            markUp()
            return reply
        } catch {
            discard()
            markDown(error)
            throw error
        }
    }

    /// An idle connection, a new one while fewer than `size` are open, or the first one given
    /// back within the command timeout.
    private func borrow() throws(RedisFailure) -> RedisConnection {
        let deadline = Date().addingTimeInterval(endpoint.commandTimeout.seconds)
        while true {
            enum Step { case use(RedisConnection), connect, down, wait }
            let step: Step = state.withLock { state in
                if let until = state.downUntil, ContinuousClock.now < until { return .down }
                if let connection = state.idle.popLast() { return .use(connection) }
                if state.open < size {
                    state.open += 1
                    return .connect
                }
                return .wait
            }
            switch step {
            case .use(let connection): return connection
            case .down: throw .unreachable("Redis is marked unavailable after a failure")
            case .connect:
                do {
                    return try RedisConnection(endpoint)
                } catch {
                    discard()
                    markDown(error)
                    throw error
                }
            case .wait:
                available.lock()
                let signalled = available.wait(until: deadline)
                available.unlock()
                if !signalled && Date() >= deadline { throw .unreachable("no Redis connection became free in time") }
            }
        }
    }

    private func giveBack(_ connection: RedisConnection) {
        state.withLock { $0.idle.append(connection) }
        available.lock()
        available.signal()
        available.unlock()
    }

    /// A lent connection is gone (broken, timed out, or never made).
    private func discard() {
        state.withLock { $0.open -= 1 }
        available.lock()
        available.signal()
        available.unlock()
    }

    private func markDown(_ error: RedisFailure) {
        guard case .unreachable(let reason) = error else { return }
        let first = state.withLock { state in
            state.downUntil = ContinuousClock.now + retryInterval
            // Idle connections to a Redis that stopped answering are as broken as the one that failed.
            state.open -= state.idle.count
            state.idle.removeAll()
            defer { state.reportedDown = true }
            return !state.reportedDown
        }
        if first {
            logger.warning("shared cache unavailable, serving without it", metadata: [
                "redis": "\(endpoint.host):\(endpoint.port)", "reason": "\(reason)",
            ])
        }
    }

    private func markUp() {
        let recovered = state.withLock { state in
            state.downUntil = nil
            defer { state.reportedDown = false }
            return state.reportedDown
        }
        if recovered { logger.notice("shared cache available again", metadata: ["redis": "\(endpoint.host):\(endpoint.port)"]) }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
