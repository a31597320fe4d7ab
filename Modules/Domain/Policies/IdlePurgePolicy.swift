import Foundation

/// Clears a cache opened after it sat unused for longer than an interval — the seed's
/// "drop the disk cache 24 hours after the last launch".
public struct IdlePurgePolicy: CachePolicy, Hashable {
    /// How long a cache may sit unopened and keep its entries.
    public var maximumIdle: TimeInterval

    /// Creates a policy.
    public init(maximumIdle: TimeInterval) { self.maximumIdle = maximumIdle }

    public func shouldPurgeAll(lastOpened: Date, now: Date) -> Bool {
        now.timeIntervalSince(lastOpened) > maximumIdle
    }
}
