import Foundation

/// Lets at most `limit` pieces of work run at once; the rest wait in arrival order: a
/// ``KeyedLimiter`` with one key.
///
/// A waiter whose task is cancelled leaves the queue with `CancellationError`.
struct AsyncLimiter: Sendable {
    private let slots: KeyedLimiter

    init(limit: Int) { slots = KeyedLimiter(limit: limit) }

    /// Runs CPU-bound `work` once a slot is free, on a thread of its own: not on one of
    /// Swift's cooperative threads (one per core), which would leave none for the awaiting
    /// work of others — a server's `/health` and the answers it has kept — nor on Dispatch's
    /// global queue, as wide as the cores too, which others' blocking work can fill. A thread
    /// costs tens of microseconds; a decode, milliseconds.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await slots.withSlot(for: "") {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try work() }) }.start()
            }
        }
    }

    /// Runs asynchronous `work` once a slot is free, holding the slot until it ends.
    func withSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await slots.withSlot(for: "", work)
    }
}
