import Foundation

/// A credential held for every caller (AWS's keys, an OAuth token): fetched once however many
/// callers ask at once, fetched again when it comes within `margin` of its expiry, and kept
/// when a renewal fails while it still works.
actor RenewingCache<Value: Sendable> {
    private var current: Value?
    private var renewal: Task<Value, any Error>?
    let margin: TimeInterval
    /// When a value stops working; `nil`: never.
    let expiration: @Sendable (Value) -> Date?

    init(margin: TimeInterval, expiration: @escaping @Sendable (Value) -> Date?) {
        self.margin = margin
        self.expiration = expiration
    }

    func value(fetch: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let current, !expires(current, within: margin) { return current }
        let task: Task<Value, any Error>
        if let renewal {
            task = renewal
        } else {
            task = Task { try await fetch() }
            renewal = task
        }
        do {
            let fresh = try await task.value
            if renewal == task { renewal = nil }
            current = fresh
            return fresh
        } catch {
            if renewal == task { renewal = nil }
            if let current, !expires(current, within: 0) { return current }
            throw error
        }
    }

    private func expires(_ value: Value, within margin: TimeInterval) -> Bool {
        expiration(value).map { $0.timeIntervalSinceNow < margin } ?? false
    }
}
