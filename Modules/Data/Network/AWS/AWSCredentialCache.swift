import Foundation

/// The credentials an ``AWSCredentialChain`` holds: fetched once however many callers ask at
/// once, fetched again when they come within `margin` of their expiry, and kept when a
/// renewal fails while they still work.
actor AWSCredentialCache {
    private var current: AWSCredentials?
    private var renewal: Task<AWSCredentials, any Error>?
    let margin: TimeInterval

    init(margin: TimeInterval) { self.margin = margin }

    func credentials(fetch: @escaping @Sendable () async throws -> AWSCredentials) async throws -> AWSCredentials {
        if let current, !current.expires(within: margin) { return current }
        let task: Task<AWSCredentials, any Error>
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
            if let current, !current.expires(within: 0) { return current }
            throw error
        }
    }
}
