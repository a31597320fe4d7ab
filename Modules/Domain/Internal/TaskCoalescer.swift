/// Runs one task per key however many callers ask, and shares its result.
///
/// A caller whose task is cancelled leaves at once with `CancellationError`; the others keep
/// waiting. When the last caller leaves, the shared task is cancelled and forgotten, so a
/// later caller starts afresh. A finished task is forgotten too: failures are never reused.
actor TaskCoalescer<Key: Hashable & Sendable, Value: Sendable> {
    private final class Job {
        let id: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        init(id: Int) { self.id = id }
    }

    private var jobs: [Key: Job] = [:]
    private var nextID = 0
    /// How many shared tasks have been started, for tests and diagnostics.
    private(set) var startedCount = 0

    /// The number of callers waiting on the task for `key`.
    func waiterCount(for key: Key) -> Int { jobs[key]?.waiters.count ?? 0 }

    /// Joins the task for `key`, starting it with `operation` when none runs.
    func value(
        for key: Key,
        priority: TaskPriority?,
        operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        nextID += 1
        let waiterID = nextID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancellation before this point is seen here; after it, by `leave`.
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let job = jobs[key] ?? start(key: key, priority: priority, operation: operation)
                job.waiters[waiterID] = continuation
            }
        } onCancel: {
            Task { await self.leave(key: key, waiterID: waiterID) }
        }
    }

    private func start(key: Key, priority: TaskPriority?, operation: @escaping @Sendable () async throws -> Value) -> Job {
        nextID += 1
        let job = Job(id: nextID)
        let jobID = job.id
        jobs[key] = job
        startedCount += 1
        // Detached: the work must not run on this actor, which only coordinates.
        job.task = Task.detached(priority: priority) {
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            await self.finish(key: key, jobID: jobID, result: result)
        }
        return job
    }

    private func finish(key: Key, jobID: Int, result: Result<Value, any Error>) {
        guard let job = jobs[key], job.id == jobID else { return }  // abandoned, or replaced
        jobs[key] = nil
        for continuation in job.waiters.values { continuation.resume(with: result) }
    }

    private func leave(key: Key, waiterID: Int) {
        guard let job = jobs[key], let continuation = job.waiters.removeValue(forKey: waiterID) else { return }
        continuation.resume(throwing: CancellationError())
        if job.waiters.isEmpty {
            job.task?.cancel()
            jobs[key] = nil
        }
    }
}
