import Foundation
import OspreyDomain

extension CurlDataLoader {
    /// Sends `call` once (no retry): the answer whatever its status, in `metadata.statusCode`;
    /// through the configured proxy when one applies to its URL (the operator's services are
    /// not checked against the address policy).
    /// - Throws: `DataLoadingError` when no answer arrived (connection, timeout, size).
    package func send(_ call: ServiceCall) async throws -> DataResponse {
        let url = call.url.absoluteString
        do {
            let route = configuration.proxy?.proxy(for: call.url).map { ProxyRoute(proxy: $0) }
            return try await runningEngine(for: url).perform(DataRequest(url: call.url, headers: call.headers), signing: call.signing,
                                                             call: call, route: route, progress: { _ in })
        } catch let failure as AttemptFailure {
            throw failure.error
        }
    }
}
