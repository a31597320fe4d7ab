/// Lets at most `limit` pieces of work run at once; the rest wait in arrival order.
///
/// A waiter whose task is cancelled leaves the queue with `CancellationError`.
actor AsyncLimiter {
    private let limit: Int
    private var running = 0
    private var queue: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Runs `work` once a slot is free. The work itself runs in the caller's context.
    nonisolated func run<T: Sendable>(_ work: @Sendable () throws -> T) async throws -> T {
        try await acquire()
        let result: Result<T, any Error>
        do { result = .success(try work()) } catch { result = .failure(error) }
        await release()
        return try result.get()
    }

    /// Runs asynchronous `work` once a slot is free, holding the slot until it ends.
    nonisolated func withSlot<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        await release()
        return try result.get()
    }

    private func acquire() async throws {
        if running < limit {
            try Task.checkCancellation()
            running += 1
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    queue.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func release() {
        if queue.isEmpty {
            running -= 1
        } else {
            queue.removeFirst().continuation.resume()  // the slot passes straight on
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return }
        queue.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
