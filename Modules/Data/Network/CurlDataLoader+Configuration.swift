import Foundation
import OspreyDomain

extension CurlDataLoader {
    /// Limits, timeouts and retries.
    public struct Configuration: Sendable {
        /// Transfers at once in all (default 6, as Nuke and SDWebImage); more wait their turn.
        public var maxConcurrentTransfers: Int
        /// Connections at once to one host (default 6).
        public var maxConnectionsPerHost: Int
        /// Seconds to establish a connection (default 10).
        public var connectTimeout: TimeInterval
        /// Seconds for a whole transfer (default 30).
        public var transferTimeout: TimeInterval
        /// Seconds without a byte before the transfer is abandoned (default 10).
        public var stallTimeout: TimeInterval
        /// The most bytes a response may have (default 50 MB), from Content-Length and while streaming.
        public var maxResponseSize: Int64
        /// Redirects followed at most (default 5).
        public var maxRedirects: Int
        /// Extra attempts for idempotent GETs after a connection failure, 5xx or 429 (default 2).
        public var maxRetries: Int
        /// The first retry's delay; each later one doubles it (default 0.2 s).
        public var retryBaseDelay: TimeInterval
        /// The longest `Retry-After` honoured (default 10 s); longer ones give up.
        public var maxRetryAfter: TimeInterval
        /// Body memory kept for reuse once callers release their `Data` (default 32 MB);
        /// 0 frees every body buffer. Reuse saves the page faults of fresh memory.
        public var idleBodyBufferLimit: Int
        /// A PEM file of certificate authorities to trust instead of the system's (a private
        /// CA); `nil` (the default) trusts the system's. Verification is on either way.
        public var certificateAuthorities: String?
        /// Adds headers or authentication to every request.
        public var requestModifier: @Sendable (inout DataRequest) -> Void
        /// Which addresses sources may be fetched from, checked where each connection is
        /// opened (the first, each redirect's, each retry's), on the address the host name
        /// resolved to. `nil` (the default) connects anywhere; set `AddressPolicy()` when
        /// URLs come from users, so none can reach this machine or its private network.
        /// With a policy, only ``proxy`` is used, never libcurl's reading of the environment.
        public var addressPolicy: AddressPolicy?
        /// The proxies requests go through; `nil` (the default): libcurl's reading of the
        /// environment without an ``addressPolicy``, none with one. With a policy, each
        /// source's address is checked before the proxy is asked to tunnel to it.
        public var proxy: ProxySettings?
        /// Checked for every redirect's target before it is followed, after the target is
        /// resolved as libcurl resolves it: a refusal ends the load with
        /// `DataLoadingError.refused(_:url:)`. A server passes its allow-list here, so an
        /// allowed origin cannot bounce a fetch elsewhere. `nil` (the default) follows any
        /// http or https target.
        public var sourceFilter: (@Sendable (URL) -> SourceRefusal?)?
        /// `HOST:PORT:ADDRESS` entries answered instead of a DNS look-up
        /// (`CURLOPT_RESOLVE`): tests give a host name an address of their own.
        package var resolve: [String] = []

        /// Creates a configuration.
        public init(
            maxConcurrentTransfers: Int = 6, maxConnectionsPerHost: Int = 6, connectTimeout: TimeInterval = 10,
            transferTimeout: TimeInterval = 30, stallTimeout: TimeInterval = 10, maxResponseSize: Int64 = 50_000_000,
            maxRedirects: Int = 5, maxRetries: Int = 2, retryBaseDelay: TimeInterval = 0.2, maxRetryAfter: TimeInterval = 10,
            idleBodyBufferLimit: Int = 32 << 20, certificateAuthorities: String? = nil,
            requestModifier: @escaping @Sendable (inout DataRequest) -> Void = { _ in },
            addressPolicy: AddressPolicy? = nil, sourceFilter: (@Sendable (URL) -> SourceRefusal?)? = nil
        ) {
            self.maxConcurrentTransfers = maxConcurrentTransfers
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.connectTimeout = connectTimeout
            self.transferTimeout = transferTimeout
            self.stallTimeout = stallTimeout
            self.maxResponseSize = maxResponseSize
            self.maxRedirects = maxRedirects
            self.maxRetries = maxRetries
            self.retryBaseDelay = retryBaseDelay
            self.maxRetryAfter = maxRetryAfter
            self.idleBodyBufferLimit = idleBodyBufferLimit
            self.certificateAuthorities = certificateAuthorities
            self.requestModifier = requestModifier
            self.addressPolicy = addressPolicy
            self.sourceFilter = sourceFilter
        }
    }
}
