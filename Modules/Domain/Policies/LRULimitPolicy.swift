/// Evicts least recently used entries when total cost or count passes a limit.
///
/// With `trimRatio` below 1 the cache shrinks further than the limit, so that a run of
/// writes does not evict on each one (the disk cache trims to 70%).
public struct LRULimitPolicy: CachePolicy, Hashable {
    /// The most total cost the cache may hold.
    public var costLimit: Int
    /// The most entries the cache may hold.
    public var countLimit: Int
    /// The share of each limit to shrink to once one is passed, in `0...1`.
    public var trimRatio: Double

    /// Creates a policy; `countLimit` defaults to no limit and `trimRatio` to 1.
    public init(costLimit: Int = .max, countLimit: Int = .max, trimRatio: Double = 1) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        self.trimRatio = min(1, max(0, trimRatio))
    }

    public func evictionTarget(for usage: CacheUsage) -> CacheUsage? {
        guard usage.cost > costLimit || usage.count > countLimit else { return nil }
        // Never above the current usage: a dimension within its limit is left as it is.
        return CacheUsage(
            cost: min(usage.cost, Self.scale(costLimit, by: trimRatio)),
            count: min(usage.count, Self.scale(countLimit, by: trimRatio))
        )
    }

    private static func scale(_ limit: Int, by ratio: Double) -> Int {
        limit == .max || ratio == 1 ? limit : Int(Double(limit) * ratio)
    }
}
