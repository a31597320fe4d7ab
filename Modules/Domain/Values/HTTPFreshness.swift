import Foundation

/// How long a response may be used without asking the server again.
public struct HTTPFreshness: Hashable, Sendable {
    /// `Cache-Control: no-store`: never write the response to disk.
    public var noStore: Bool
    /// `Cache-Control: no-cache`: revalidate before every use.
    public var noCache: Bool
    /// `Cache-Control: max-age`, in seconds.
    public var maxAge: Int?
    /// The `Expires` date.
    public var expires: Date?

    /// Creates freshness information; by default the server said nothing.
    public init(noStore: Bool = false, noCache: Bool = false, maxAge: Int? = nil, expires: Date? = nil) {
        self.noStore = noStore
        self.noCache = noCache
        self.maxAge = maxAge
        self.expires = expires
    }

    /// The moment a response received at `date` stops being fresh; `nil` when the server
    /// gave no lifetime. `max-age` wins over `Expires`, as HTTP says.
    public func freshUntil(receivedAt date: Date) -> Date? {
        if noCache { return date }
        if let maxAge { return date.addingTimeInterval(TimeInterval(maxAge)) }
        return expires
    }
}
