import Foundation

/// Expires entries a fixed time after they were stored or last used.
public struct ExpiryPolicy: CachePolicy, Hashable {
    /// When an entry expires.
    public enum Rule: Hashable, Sendable {
        /// Never.
        case never
        /// This many seconds after it was stored.
        case sinceCreation(TimeInterval)
        /// This many seconds after it was last read or written.
        case sinceLastAccess(TimeInterval)
    }

    /// The rule applied.
    public var rule: Rule

    /// Creates a policy.
    public init(_ rule: Rule) { self.rule = rule }

    public func isExpired(_ entry: CacheEntryInfo, now: Date) -> Bool {
        switch rule {
        case .never: false
        case .sinceCreation(let ttl): now.timeIntervalSince(entry.createdAt) >= ttl
        case .sinceLastAccess(let ttl): now.timeIntervalSince(entry.lastAccessAt) >= ttl
        }
    }
}
