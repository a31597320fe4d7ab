import Foundation
import OspreyDomain

extension CurlDataLoader {
    /// Sends `call` once (no retry): the answer whatever its status, in `metadata.statusCode`.
    /// - Throws: `DataLoadingError` when no answer arrived (connection, timeout, size).
    package func send(_ call: ServiceCall) async throws -> DataResponse {
        let url = call.url.absoluteString
        do {
            return try await runningEngine(for: url).perform(DataRequest(url: call.url, headers: call.headers), signing: call.signing,
                                                             call: call, progress: { _ in })
        } catch let failure as AttemptFailure {
            throw failure.error
        }
    }
}
