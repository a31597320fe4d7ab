/// A least-recently-used list with O(1) lookup, insert, touch and remove: a dictionary of
/// slots plus a doubly linked list threaded through an array (no per-node allocation).
///
/// Not thread-safe; ``MemoryCache`` guards it with a mutex.
struct LRUList<Key: Hashable, Value> {
    struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var lastAccess: Double
        var older: Int
        var newer: Int
    }

    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    /// The least recently used slot, or -1.
    private(set) var oldest = -1
    /// The most recently used slot, or -1.
    private(set) var newest = -1
    private(set) var totalCost = 0

    var count: Int { slots.count }
    /// Every key, in no order.
    var keys: Dictionary<Key, Int>.Keys { slots.keys }

    /// The node for `key`, without changing its recency.
    func peek(_ key: Key) -> Node? { slots[key].flatMap { nodes[$0] } }

    /// The node in `slot`.
    func node(at slot: Int) -> Node? { slot >= 0 && slot < nodes.count ? nodes[slot] : nil }

    /// Marks `key` most recently used at `now` and returns its value.
    mutating func touch(_ key: Key, now: Double) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        nodes[slot]!.lastAccess = now
        linkNewest(slot)
        return nodes[slot]!.value
    }

    /// Inserts or replaces `key` as the most recently used entry.
    mutating func set(_ key: Key, _ value: Value, cost: Int, now: Double) {
        _ = remove(key)
        let node = Node(key: key, value: value, cost: cost, lastAccess: now, older: -1, newer: -1)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        slots[key] = slot
        totalCost += cost
        linkNewest(slot)
    }

    /// Removes `key`; returns its node.
    @discardableResult
    mutating func remove(_ key: Key) -> Node? {
        guard let slot = slots.removeValue(forKey: key), let node = nodes[slot] else { return nil }
        unlink(slot)
        nodes[slot] = nil
        free.append(slot)
        totalCost -= node.cost
        return node
    }

    /// Removes the least recently used entry; returns it.
    @discardableResult
    mutating func removeOldest() -> Node? {
        guard let node = node(at: oldest) else { return nil }
        return remove(node.key)
    }

    mutating func removeAll() { self = LRUList() }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]!
        if node.older >= 0 { nodes[node.older]!.newer = node.newer } else { oldest = node.newer }
        if node.newer >= 0 { nodes[node.newer]!.older = node.older } else { newest = node.older }
        nodes[slot]!.older = -1
        nodes[slot]!.newer = -1
    }

    private mutating func linkNewest(_ slot: Int) {
        nodes[slot]!.older = newest
        nodes[slot]!.newer = -1
        if newest >= 0 { nodes[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
