/// Fetches the bytes of a URL, with response metadata, progress and cancellation.
///
/// Cancellation is the calling task's: cancelling it ends the transfer and the call throws
/// `CancellationError`.
///
/// - important: Failures are ``DataLoadingError``s. A status outside 2xx is
///   ``DataLoadingError/httpStatus(_:url:)``, except `304` for a request that carried
///   validators, which returns with an empty body and ``ResponseMetadata/isNotModified``.
public protocol DataLoading: Sendable {
    /// Fetches `request`, calling `progress` with non-decreasing byte counts as data arrives.
    func loadData(
        for request: DataRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> DataResponse
}

extension DataLoading {
    /// Fetches `request` without reporting progress.
    public func loadData(for request: DataRequest) async throws -> DataResponse {
        try await loadData(for: request, progress: { _ in })
    }

    /// Starts fetching `request` and gives its progress as an async sequence beside the result.
    ///
    /// ```swift
    /// let transfer = loader.transfer(for: DataRequest(url: url))
    /// for await step in transfer.progress { print(step) }
    /// let response = try await transfer.response
    /// ```
    public func transfer(for request: DataRequest) -> DataTransfer {
        DataTransfer(loader: self, request: request)
    }
}
