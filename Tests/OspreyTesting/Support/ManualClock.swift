import Foundation
import OspreyDomain

/// A ``Clock`` that moves only when told to, for expiry tests without waiting.
public final class ManualClock: Clock {
    private let current: Locked<Date>

    /// Creates a clock showing `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
