import Foundation

/// A value the programs' threads share, behind a pthread mutex (`NSLock`, which
/// ThreadSanitizer sees, unlike the standard library's `Mutex` on Linux).
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the lock held and the value lent to it.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
