/// How a transfer goes through a proxy.
struct ProxyRoute: Sendable {
    /// The proxy's URL.
    let proxy: String
    /// Whether the loader checked the address the proxy is asked for (an address policy
    /// holds): libcurl then tunnels to it and follows no redirect itself.
    var pinned = false
    /// `HOST:PORT:ADDRESS:PORT` (`CURLOPT_CONNECT_TO`): the checked address, for a host name.
    var connectTo: String?
}
