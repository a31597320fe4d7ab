/// A memory cache a ``MemoryBudget`` counts and shrinks: what it holds is memory the work in
/// flight cannot have, and it gives way first when the budget is tight.
public protocol MemoryTrimming: AnyObject, Sendable {
    /// The bytes it holds now.
    var cost: Int { get }
    /// Drops least recently used entries until it holds at most `cost` bytes.
    func trim(toCost cost: Int)
}
