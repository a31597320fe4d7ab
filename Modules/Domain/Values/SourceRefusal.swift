/// Why a source was not fetched: its URL or the address it resolved to is one the policy
/// keeps out. A few words each, with no address in them, so a server may show them.
public enum SourceRefusal: String, Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The scheme is not one fetched: http and https, and where configured a server's
    /// `local` and `s3` (a redirect's only http or https).
    case scheme
    /// The URL (or a redirect's target) is outside the allowed sources.
    case notAllowed = "not-allowed"
    /// The host is this machine.
    case loopbackAddress = "loopback"
    /// The host is on a private network.
    case privateAddress = "private"
    /// The host is on the local link, as cloud metadata services are.
    case linkLocalAddress = "link-local"
    /// The host is a multicast, broadcast or reserved address.
    case reservedAddress = "reserved"
    /// A local path that leads outside the folder local sources are served from.
    case outsideRoot = "outside-root"
    /// The URL carries a user name or password, which could make it read as another host.
    case credentials
    /// An object store's URL (`s3://bucket/key`) that is not a bucket and a key: a `.` or
    /// `..` segment, a query, a fragment or a port, which a request could read as another
    /// object or another operation.
    case storeURL = "store-url"

    /// The refusal for an address of `category`; `nil` for a public one.
    public init?(_ category: IPAddress.Category) {
        switch category {
        case .public: return nil
        case .loopback: self = .loopbackAddress
        case .private: self = .privateAddress
        case .linkLocal: self = .linkLocalAddress
        case .reserved: self = .reservedAddress
        }
    }

    public var description: String {
        switch self {
        case .scheme: "the source's scheme is not one this server fetches"
        case .notAllowed: "the source is not under an allowed origin"
        case .loopbackAddress: "the source is on a loopback address"
        case .privateAddress: "the source is on a private address"
        case .linkLocalAddress: "the source is on a link-local address"
        case .reservedAddress: "the source is on a reserved address"
        case .outsideRoot: "the path leads outside the local root"
        case .credentials: "the source's URL carries a user name or password"
        case .storeURL: "the object store's URL is not a bucket and a key"
        }
    }
}
