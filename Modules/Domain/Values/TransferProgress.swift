/// How far a transfer has come.
public struct TransferProgress: Hashable, Sendable, CustomStringConvertible {
    /// Bytes received so far.
    public var completed: Int64
    /// Bytes expected in all, when the server said (`Content-Length`).
    public var expected: Int64?

    /// Creates a progress value.
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected
    }

    /// The completed share in `0...1`, when the total is known.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(completed) / Double(expected))
    }

    public var description: String { "\(completed)/\(expected.map(String.init) ?? "?") bytes" }
}
