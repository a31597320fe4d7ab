import Foundation

/// The system's wall clock.
public struct SystemClock: Clock {
    /// Creates the system clock.
    public init() {}
    public var now: Date { Date() }
}
