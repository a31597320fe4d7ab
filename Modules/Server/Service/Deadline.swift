/// A request's deadline as a race inside the request's task: the work and a timer run as
/// child tasks, the first to finish wins and the other is cancelled. Whatever the work throws
/// once the deadline has passed, or once the request itself is cancelled, is a timeout: the one
/// place cancellation becomes `503`.
enum Deadline {
    static func run<Value: Sendable>(within timeout: Duration?,
                                     _ work: @escaping @Sendable () async throws(ServerError) -> Value) async throws(ServerError) -> Value {
        guard let timeout else { return try await mappingCancellation(work) }
        let outcome: Result<Value, ServerError>? = await withTaskGroup(of: Result<Value, ServerError>?.self) { group in
            group.addTask {
                do throws(ServerError) {
                    return .success(try await mappingCancellation(work))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else { throw ServerError(.timedOut, "the deadline, \(timeout), passed") }
        return try outcome.get()
    }

    private static func mappingCancellation<Value: Sendable>(_ work: @Sendable () async throws(ServerError) -> Value) async throws(ServerError) -> Value {
        do {
            return try await work()
        } catch {
            if Task.isCancelled { throw ServerError(.timedOut, "the deadline passed: \(error.detail)") }
            throw error
        }
    }
}
