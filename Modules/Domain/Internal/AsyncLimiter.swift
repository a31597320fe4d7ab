import Foundation

/// Lets at most `limit` pieces of work run at once; the rest wait in arrival order: a
/// ``KeyedLimiter`` with one key.
///
/// A waiter whose task is cancelled leaves the queue with `CancellationError`.
struct AsyncLimiter: Sendable {
    private let slots: KeyedLimiter

    init(limit: Int) { slots = KeyedLimiter(limit: limit) }

    /// Runs CPU-bound `work` once a slot is free, on a thread of its own (``WorkerThreads``)
    /// and within the calling task, whose cancellation `work` can see.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await slots.withSlot(for: "") {
            try await withTaskExecutorPreference(WorkerThreads.shared) { try work() }
        }
    }

    /// Runs asynchronous `work` once a slot is free, holding the slot until it ends.
    func withSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await slots.withSlot(for: "", work)
    }
}
