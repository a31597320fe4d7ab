/// Lets at most `limit` pieces of work of one key run at once, whatever other keys do; the
/// rest of that key wait in arrival order. Keys with nothing running or waiting are forgotten.
///
/// A waiter whose task is cancelled leaves the queue with `CancellationError`.
actor KeyedLimiter {
    private let limit: Int
    private var running: [String: Int] = [:]
    private var queues: [String: [(id: Int, continuation: CheckedContinuation<Void, any Error>)]] = [:]
    private var nextID = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `work` once `key` has a free slot, holding it until the work ends.
    nonisolated func withSlot<T: Sendable>(for key: String, _ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire(key)
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        await release(key)
        return try result.get()
    }

    private func acquire(_ key: String) async throws {
        if running[key, default: 0] < limit {
            try Task.checkCancellation()
            running[key, default: 0] += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    queues[key, default: []].append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id, key: key) }
        }
    }

    private func release(_ key: String) {
        if var queue = queues[key], !queue.isEmpty {
            let next = queue.removeFirst()
            queues[key] = queue.isEmpty ? nil : queue
            next.continuation.resume()  // the slot passes straight on
        } else {
            running[key, default: 1] -= 1
            if running[key] == 0 { running[key] = nil }
        }
    }

    private func cancelWaiter(_ id: Int, key: String) {
        guard var queue = queues[key], let index = queue.firstIndex(where: { $0.id == id }) else { return }
        let waiter = queue.remove(at: index)
        queues[key] = queue.isEmpty ? nil : queue
        waiter.continuation.resume(throwing: CancellationError())
    }
}
