import CCurlShims
import Foundation
import OspreyDomain

/// Fetches bytes over HTTP and HTTPS with libcurl's multi interface, on one event-loop
/// thread for every transfer.
///
/// ```swift
/// let loader = CurlDataLoader()
/// let response = try await loader.loadData(for: DataRequest(url: url)) { print($0) }
/// ```
///
/// - Cancelling the calling task aborts the transfer and frees its handle.
/// - Non-2xx statuses, timeouts, oversize and short bodies are `DataLoadingError`s.
/// - TLS verification is always on.
public final class CurlDataLoader: DataLoading {
    /// Limits, timeouts and retries.
    public let configuration: Configuration
    private let buffers: BodyBufferPool
    /// Started by the first transfer, which opens libcurl: a process that never fetches
    /// over HTTP never loads it.
    private let startedEngine = Locked<TransferEngine?>(nil)

    /// Creates a loader; its event-loop thread starts with the first transfer.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        buffers = BodyBufferPool(idleLimit: configuration.idleBodyBufferLimit)
    }

    deinit { engine?.shutdown() }

    /// The body buffers kept for reuse (``Configuration/idleBodyBufferLimit``), for a
    /// `MemoryBudget` to count among the caches and free first when memory is tight.
    public var idleBodyBuffers: any MemoryTrimming { buffers }

    /// The event loop, once a transfer has started it.
    var engine: TransferEngine? { startedEngine.withLock { $0 } }

    func runningEngine(for url: String) throws -> TransferEngine {
        try startedEngine.withLock { engine in
            if let engine { return engine }
            guard osp_curl_available() == 1 else {
                let reason = osp_curl_load_error().map { String(cString: $0) } ?? "not found"
                throw DataLoadingError.transport("libcurl could not be loaded: \(reason)", url: url)
            }
            let started = TransferEngine(configuration: configuration, buffers: buffers)
            engine = started
            return started
        }
    }

    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        try await perform(request, sink: nil, signing: nil, progress: progress)
    }

    /// Downloads `request`'s body straight into the file at `path` (created or truncated), as
    /// curl does, so memory does not grow with the body. The response's `data` is empty; a
    /// retry starts the file again.
    /// - Throws: `DataLoadingError`, or ``WriteError`` when the file cannot be written.
    public func download(_ request: DataRequest, toFile path: String,
                         progress: @escaping @Sendable (TransferProgress) -> Void = { _ in }) async throws -> DataResponse {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try await perform(request, sink: fd, signing: nil, progress: progress)
    }

    /// A body that could not be written to its file.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The system's reason, such as `No space left on device`.
        public let reason: String
        /// Creates the error.
        public init(reason: String) { self.reason = reason }
        public var description: String { "cannot write the body: \(reason)" }
    }

    /// Runs `request` with retries; with `signing`, signed for an object store (``S3DataLoader``).
    func perform(_ request: DataRequest, sink: Int32?, signing: AWSSigning?, toOperator: Bool = false,
                 progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        var request = request
        configuration.requestModifier(&request)
        let url = request.url.absoluteString
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DataLoadingError.unsupportedScheme(request.url.scheme ?? "", url: url)
        }
        var attempt = 0
        while true {
            do {
                if let sink, attempt > 0 {  // a retry writes the body from the start
                    guard ftruncate(sink, 0) == 0, lseek(sink, 0, SEEK_SET) == 0 else {
                        throw WriteError(reason: String(cString: strerror(errno)))
                    }
                }
                return try await fetchOnce(request, sink: sink, signing: signing, toOperator: toOperator, progress: progress)
            } catch let failure as AttemptFailure {
                guard attempt < configuration.maxRetries, let delay = retryDelay(after: failure, attempt: attempt) else {
                    throw failure.error
                }
                attempt += 1
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            }
        }
    }

    /// How long to wait before retrying a failed GET, or `nil` when it must not be retried.
    private func retryDelay(after failure: AttemptFailure, attempt: Int) -> TimeInterval? {
        let backoff = configuration.retryBaseDelay * pow(2, Double(attempt))
        switch failure.error {
        case .connectionFailed: return backoff
        case .httpStatus(let status, _) where status == 429 || (500..<600).contains(status):
            guard let retryAfter = failure.retryAfter else { return backoff }
            return retryAfter <= configuration.maxRetryAfter ? max(backoff, retryAfter) : nil
        default: return nil
        }
    }
}
