/// Which addresses a loader may connect to for a source. A loader checks it where each
/// connection is opened (the first, each redirect's, each retry's), on the address it
/// resolved, so a host name that resolves to an internal address, a numeric spelling of
/// one and a redirect to one are all refused alike.
///
/// ```swift
/// var network = CurlDataLoader.Configuration()
/// network.addressPolicy = AddressPolicy()  // public addresses only: for URLs users give
/// ```
///
/// Public addresses are always allowed; each other ``IPAddress/Category`` only when listed.
public struct AddressPolicy: Hashable, Sendable {
    /// Categories allowed besides ``IPAddress/Category/public``.
    public var allowedCategories: Set<IPAddress.Category>
    /// Host names (lowercased) connected to whatever their address: an operator's own
    /// origins on an internal network.
    public var trustedHosts: Set<String>

    /// A policy allowing public addresses, `allowedCategories`, and `trustedHosts` wherever
    /// they are.
    public init(allowing allowedCategories: Set<IPAddress.Category> = [], trustedHosts: Set<String> = []) {
        self.allowedCategories = allowedCategories
        self.trustedHosts = Set(trustedHosts.map { Self.normalized($0) })
    }

    /// Why connecting to `address` for `host` is refused, or `nil` when it is allowed.
    public func refusal(connectingTo address: IPAddress, host: String?) -> SourceRefusal? {
        let category = address.category
        guard category != .public, !allowedCategories.contains(category) else { return nil }
        if let host, trustedHosts.contains(Self.normalized(host)) { return nil }
        return SourceRefusal(category)
    }

    /// The refusal a URL's host earns from its text alone, before any look-up: a numeric
    /// address in any spelling, and `localhost` names. A first, cheap refusal; the check
    /// on connecting is the one that holds.
    public func refusal(forHost host: String) -> SourceRefusal? {
        let name = Self.normalized(host)
        if trustedHosts.contains(name) { return nil }
        if let address = IPAddress(name) { return refusal(connectingTo: address, host: nil) }
        let isLocalName = name == "localhost" || name.hasSuffix(".localhost")
        return isLocalName && !allowedCategories.contains(.loopback) ? .loopbackAddress : nil
    }

    /// Lowercased, without IPv6 brackets or a final dot.
    package static func normalized(_ host: String) -> String {
        var name = Substring(host.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.hasSuffix(".") { name = name.dropLast() }
        return String(name)
    }
}
