import Foundation

/// How much a cache holds: total cost and number of entries.
public struct CacheUsage: Hashable, Sendable, CustomStringConvertible {
    /// The sum of the entries' costs.
    public var cost: Int
    /// The number of entries.
    public var count: Int

    /// Creates a usage figure.
    public init(cost: Int, count: Int) {
        self.cost = cost
        self.count = count
    }

    /// Nothing stored.
    public static let zero = CacheUsage(cost: 0, count: 0)

    /// `true` when neither figure is above `limit`'s.
    public func fits(within limit: CacheUsage) -> Bool { cost <= limit.cost && count <= limit.count }

    public var description: String { "\(count) entries, \(cost) bytes" }
}
