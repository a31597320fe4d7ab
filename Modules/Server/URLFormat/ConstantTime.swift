/// Comparisons of secrets whose time does not tell how much of a guess was right.
enum ConstantTime {
    /// Whether `given` is `expected`, every byte looked at whatever the first difference.
    static func equal(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8), expected = Array(expected.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
