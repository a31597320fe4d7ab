import Foundation

/// Runs blocking `body` (waiting for a process, a socket, a sleep) on a thread of its own, so
/// that a test leaves Swift's shared pool — two threads on two cores — to the tests that run
/// beside it.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
