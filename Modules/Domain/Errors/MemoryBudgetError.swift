/// Why a ``MemoryBudget`` did not admit a piece of work.
public enum MemoryBudgetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The work's estimate alone is over what the budget can ever give one piece of work.
    case overBudget(estimate: Int, budget: Int)
    /// The work waited its longest for the work in flight to make room.
    case waitedTooLong(Duration)

    public var description: String {
        switch self {
        case let .overBudget(estimate, budget):
            "the work needs about \(estimate / 1_000_000) MB, over the \(budget / 1_000_000) MB the memory budget gives one request"
        case .waitedTooLong(let wait): "no room in the memory budget within \(wait)"
        }
    }
}
