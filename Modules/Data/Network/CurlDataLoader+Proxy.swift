import Foundation
import OspreyDomain

extension CurlDataLoader {
    /// One attempt at `request`: directly, or through the proxy ``Configuration/proxy`` names
    /// for its URL. Under an address policy, the loader resolves the host, checks the address,
    /// has the proxy tunnel to that address, and follows each redirect the same way.
    func fetchOnce(_ request: DataRequest, sink: Int32?, signing: AWSSigning?, toOperator: Bool,
                 progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let engine = try runningEngine(for: request.url.absoluteString)
        var request = request
        var redirects = 0
        while true {
            guard let proxy = configuration.proxy?.proxy(for: request.url) else {
                return try await engine.perform(request, sink: sink, signing: signing, toOperator: toOperator, progress: progress)
            }
            guard let policy = configuration.addressPolicy, signing == nil, !toOperator else {
                return try await engine.perform(request, sink: sink, signing: signing, toOperator: toOperator,
                                                route: ProxyRoute(proxy: proxy), progress: progress)
            }
            let route = try await pinnedRoute(to: request.url, through: proxy, policy: policy)
            do {
                return try await engine.perform(request, sink: sink, route: route, progress: progress)
            } catch let redirect as PinnedRedirect {
                let url = request.url.absoluteString
                guard redirects < configuration.maxRedirects else { throw DataLoadingError.tooManyRedirects(limit: configuration.maxRedirects, url: url) }
                guard let target = URL(string: redirect.target) else { throw DataLoadingError.refused(.notAllowed, url: redirect.target) }
                if let sink {  // the redirect's own body is not the answer's
                    guard ftruncate(sink, 0) == 0, lseek(sink, 0, SEEK_SET) == 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
                }
                redirects += 1
                request.url = target
            }
        }
    }

    /// The route through `proxy` to `url`'s host at an address `policy` allows.
    private func pinnedRoute(to url: URL, through proxy: String, policy: AddressPolicy) async throws -> ProxyRoute {
        let text = url.absoluteString
        let https = url.scheme?.lowercased() == "https"
        guard let host = url.host, !host.isEmpty else { throw DataLoadingError.connectionFailed(url: text, reason: "no host") }
        let port = url.port ?? (https ? 443 : 80)
        let addresses = await HostResolver.addresses(of: host, port: port, overrides: configuration.resolve)
        guard let address = addresses.first else {
            throw AttemptFailure(error: .connectionFailed(url: text, reason: "cannot resolve \(host)"), retryAfter: nil)
        }
        if let refusal = policy.refusal(connectingTo: address, host: host) { throw DataLoadingError.refused(refusal, url: text) }
        if IPAddress(host) != nil { return ProxyRoute(proxy: proxy, pinned: true) }
        let target = address.bytes.count == 16 ? "[\(address)]" : "\(address)"
        return ProxyRoute(proxy: proxy, pinned: true, connectTo: "\(host):\(port):\(target):\(port)")
    }
}
