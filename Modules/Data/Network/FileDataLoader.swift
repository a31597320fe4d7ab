import Foundation
import OspreyDomain

/// Loads `file:` URLs from the local disk, mapped into memory where the system allows (a
/// large file is not copied), as Nuke's and Kingfisher's loaders read bundled and picked
/// files. The response says `no-store`, so the pipeline never copies the file into its disk
/// cache; it carries the file's modification time as `Last-Modified`.
public struct FileDataLoader: DataLoading {
    /// The largest file read, in bytes; `nil` (the default): any.
    public var maxSize: Int64?

    /// A loader of files up to `maxSize` bytes (any size by default).
    public init(maxSize: Int64? = nil) { self.maxSize = maxSize }

    /// - Throws: `DataLoadingError.fileNotFound(url:)` for no file (or a folder),
    ///   `DataLoadingError.responseTooLarge(limit:url:)` for a file over ``maxSize``,
    ///   `DataLoadingError.fileUnreadable(url:reason:)` when it cannot be read,
    ///   `DataLoadingError.unsupportedScheme(_:url:)` for another scheme.
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let url = request.url
        guard url.isFileURL else { throw DataLoadingError.unsupportedScheme(url.scheme ?? "", url: url.absoluteString) }
        try Task.checkCancellation()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw DataLoadingError.fileNotFound(url: url.absoluteString)
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let maxSize, let size = attributes?[.size] as? Int64 ?? (attributes?[.size] as? Int).map(Int64.init), size > maxSize {
            throw DataLoadingError.responseTooLarge(limit: maxSize, url: url.absoluteString)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw DataLoadingError.fileUnreadable(url: url.absoluteString, reason: (error as NSError).localizedDescription)
        }
        progress(TransferProgress(completed: Int64(data.count), expected: Int64(data.count)))
        var headers = ["content-length": "\(data.count)"]
        if let modified = attributes?[.modificationDate] as? Date {
            headers["last-modified"] = HTTPDate.string(from: modified)
        }
        return DataResponse(data: data, metadata: ResponseMetadata(url: url, statusCode: 200, headers: headers,
                                                                   freshness: HTTPFreshness(noStore: true)))
    }
}
