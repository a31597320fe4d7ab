/// Checks shared by the cache contracts: what a cache holds after evictions must be the
/// most recently used entries, in a block at the end of the use order.
enum LRUOrder {
    /// `true` when the keys `isPresent` says are held form a suffix of `order`
    /// (least recently used first): nothing newer was evicted while something older stayed.
    static func presentKeysFormSuffix<K>(of order: [K], isPresent: (K) -> Bool) -> Bool {
        guard let firstPresent = order.firstIndex(where: isPresent) else { return true }
        return order[firstPresent...].allSatisfy(isPresent)
    }
}
