import Foundation

/// The current wall-clock time, injectable so expiry can be tested without waiting.
///
/// Named as the design names it; inside modules that import Osprey it shadows the
/// standard library's `Clock` protocol, which Osprey uses only through `ContinuousClock`.
public protocol Clock: Sendable {
    /// Now.
    var now: Date { get }
}
