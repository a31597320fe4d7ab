/// When the count passes a threshold, removes a batch of the least recently used entries —
/// the seed's "over 50 files, delete the 10 least used".
public struct BatchEvictionPolicy: CachePolicy, Hashable {
    /// The count that, once passed, triggers eviction.
    public var threshold: Int
    /// How many entries go at once.
    public var batchSize: Int

    /// Creates a policy.
    public init(threshold: Int, batchSize: Int) {
        self.threshold = threshold
        self.batchSize = max(1, batchSize)
    }

    public func evictionTarget(for usage: CacheUsage) -> CacheUsage? {
        guard usage.count > threshold else { return nil }
        // Down by a batch, and at least to the threshold if the cache ran far past it.
        return CacheUsage(cost: usage.cost, count: max(0, min(usage.count - batchSize, threshold)))
    }
}
