import Foundation

/// A value guarded by a lock: the one way Osprey shares mutable state between threads.
///
/// It stands in for the standard library's `Synchronization.Mutex`, which on Linux takes its
/// lock with futexes inside the uninstrumented standard library: ThreadSanitizer never sees
/// that lock taken and reports every guarded access as a race. `Locked` takes a pthread mutex
/// (through `NSLock`), which the sanitizers intercept, so `make test-tsan` checks the real
/// thing rather than a build with different locking.
///
/// ```swift
/// let hits = Locked(0)
/// hits.withLock { $0 += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value` from now on.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held and the value lent to it for changing.
    ///
    /// Keep `body` short and never await or call back into code that could take the same lock.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
