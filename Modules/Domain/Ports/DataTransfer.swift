/// A running fetch: its progress as an async sequence, and its result.
///
/// Cancel it with ``cancel()``; the progress sequence then finishes and ``response`` throws
/// `CancellationError`.
public struct DataTransfer: Sendable {
    /// Byte counts as data arrives; finishes when the transfer ends.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<DataResponse, any Error>

    init(loader: some DataLoading, request: DataRequest) {
        let (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(64))
        progress = stream
        task = Task(priority: request.priority.taskPriority) {
            defer { continuation.finish() }
            return try await loader.loadData(for: request, progress: { continuation.yield($0) })
        }
    }

    /// The response, once the transfer ends.
    public var response: DataResponse {
        get async throws { try await task.value }
    }

    /// Aborts the transfer.
    public func cancel() { task.cancel() }
}
