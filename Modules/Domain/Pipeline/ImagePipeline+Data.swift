import Foundation

// The source's bytes as they are, through the same caches and shared downloads as images.
extension ImagePipeline {
    /// The encoded bytes of `request`'s source, unprocessed, for answers that pass them on
    /// (imgproxy's `raw`): the original from the disk cache while fresh, else downloaded — once
    /// however many callers and image loads want it, revalidated with a stale entry's
    /// validators — and kept on disk; a local file is read through the data loader. Only
    /// bytes that are an image in a format the decoder knows are returned.
    ///
    /// The request's target size and processors play no part; its source, cache options and
    /// priority do.
    /// - Throws: ``Error``: `decodingFailed(.notAnImage…)` for bytes of no image format.
    public func data(for request: ImageRequest) async throws -> CachedData {
        try Task.checkCancellation()
        let plan = plan(for: request)
        return try await withLoadSlot(for: request.source) {
            switch request.source {
            case .file(let path):
                return try await self.fileData(URL(fileURLWithPath: path), priority: request.priority)
            case .url(let url):
                var stale: DiskEntry?
                switch await self.lookUpDisk(plan, candidates: [(plan.keys.data, false)]) {
                case .fresh(let entry): return entry.cached
                case .stale(let entry): stale = entry
                case .miss: break
                }
                if plan.cacheOnly { throw Error.notCached(plan.keys.data) }
                switch try await self.revalidateOrDownload(url, plan, stale: stale) {
                case .downloaded(let data, let metadata, _): return CachedData(data: data, metadata: metadata, tier: .network)
                case .notModified(let entry), .staleAfterError(let entry): return entry.cached
                }
            }
        }
    }

    /// A local file's bytes, checked to be an image.
    private func fileData(_ url: URL, priority: ImageRequest.Priority) async throws -> CachedData {
        let response: DataResponse
        do {
            response = try await configuration.dataLoader.loadData(for: DataRequest(url: url, priority: priority))
        } catch let error as DataLoadingError {
            throw Error.dataLoadingFailed(error)
        }
        var metadata = CachedDataMetadata(sourceURL: url.absoluteString)
        metadata.lastModified = response.metadata.validators?.lastModified
        do throws(ImageDecodingError) {
            metadata.format = try configuration.decoder.detectFormat(of: response.data.prefix(64))
        } catch {
            throw Error.decodingFailed(error)
        }
        return CachedData(data: response.data, metadata: metadata, tier: .file)
    }
}
