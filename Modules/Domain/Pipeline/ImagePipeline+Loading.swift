import Foundation

// One shared image load runs as named stages: look up disk, revalidate or download, then
// decode-process-store, the one stage that writes memory and a processed variant.
extension ImagePipeline {
    func load(_ plan: LoadPlan) async throws -> LoadedImage {
        // Another load may have filled memory since the caller looked.
        if let image = cachedImage(plan) { return LoadedImage(image: image, tier: .memory) }
        if let image = try await fromReduction(plan) { return image }
        let url: URL
        switch plan.request.source {
        case .file(let path):
            // Files are never copied to the disk cache, nor their variants.
            return try await decodeProcessStore(.file(path: path), plan, tier: .file, metadata: fileMetadata(path), writesVariant: false)
        case .url(let sourceURL):
            url = sourceURL
        }
        var stale: DiskEntry?
        switch await lookUpDisk(plan, candidates: plan.diskCandidates) {
        case .fresh(let entry): return try await decodeProcessStore(entry, plan)
        case .stale(let entry): stale = entry
        case .miss: break
        }
        if plan.cacheOnly { throw Error.notCached(plan.keys.data) }
        switch try await revalidateOrDownload(url, plan, stale: stale) {
        case .downloaded(let data, let metadata, let noStore):
            return try await decodeProcessStore(.data(data), plan, tier: .network, metadata: metadata, writesVariant: !noStore)
        case .notModified(let entry):
            return try await decodeProcessStore(entry, plan)
        case .staleAfterError(let entry):
            return try await decodeProcessStore(entry, plan, writesVariant: false)
        }
    }

    /// Of what a download knows, a file has only its format, read from its first bytes.
    func fileMetadata(_ path: String) -> CachedDataMetadata {
        var metadata = CachedDataMetadata()
        metadata.format = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 64) }
            .flatMap { try? configuration.decoder.detectFormat(of: $0) }
        return metadata
    }

    func cachedImage(_ plan: LoadPlan) -> Image? {
        plan.readsMemory ? configuration.imageCache?.image(for: plan.keys.image) : nil
    }

    // MARK: Stage 1: the disk cache

    /// The first disk entry among `candidates`; a failing cache counts as a miss.
    func lookUpDisk(_ plan: LoadPlan, candidates: [(key: CacheKey, isProcessed: Bool)]) async -> DiskLookup {
        guard plan.readsDisk, let cache = configuration.dataCache else { return .miss }
        for candidate in candidates {
            let cached: CachedData?
            do {
                cached = try await cache.cachedData(for: candidate.key)
            } catch {
                configuration.logger.warning("disk cache read failed, treating as a miss",
                                             metadata: ["key": "\(candidate.key)", "error": "\(error)"])
                cached = nil
            }
            guard let cached else { continue }
            let entry = DiskEntry(key: candidate.key, cached: cached, isProcessed: candidate.isProcessed)
            let fresh = plan.cacheOnly || !cached.metadata.isStale(at: configuration.clock.now)
            return fresh ? .fresh(entry) : .stale(entry)
        }
        return .miss
    }

    // MARK: Stage 2: the network

    /// Downloads the source, once however many loads want it: conditionally when a stale
    /// entry has validators, and falling back to that entry when the origin cannot answer.
    func revalidateOrDownload(_ url: URL, _ plan: LoadPlan, stale: DiskEntry?) async throws -> NetworkOutcome {
        let key = DataLoadKey(key: plan.keys.data, storesToDisk: plan.storesOriginal, validators: stale?.cached.metadata.validators)
        let download: Download
        do {
            download = try await dataLoads.value(for: key, priority: plan.request.priority.taskPriority) {
                try await self.download(url, key: key, headers: plan.request.sourceHeaders, priority: plan.request.priority)
            }
        } catch let error as Error {
            guard let stale, case .dataLoadingFailed = error else { throw error }
            configuration.logger.info("serving a stale entry: \(error)", metadata: ["key": "\(stale.key)"])
            return .staleAfterError(stale)
        }
        switch download {
        case .body(let data, let metadata, let noStore):
            return .downloaded(data, metadata, noStore: noStore)
        case .notModified(let response):
            // The loader returns 304 only for a conditional request, so `stale` is there.
            guard let stale else { throw Error.dataLoadingFailed(.httpStatus(304, url: url.absoluteString)) }
            var metadata = stale.cached.metadata
            metadata.freshUntil = response.freshUntil
            metadata.etag = response.etag ?? metadata.etag
            metadata.lastModified = response.lastModified ?? metadata.lastModified
            if plan.writesDisk { await updateDiskMetadata(metadata, for: stale.key) }
            let refreshed = CachedData(data: stale.cached.data, metadata: metadata, tier: stale.cached.tier)
            return .notModified(DiskEntry(key: stale.key, cached: refreshed, isProcessed: stale.isProcessed))
        }
    }

    /// One shared download: checks that a body is an image and stores the original bytes
    /// on disk unless the server said `no-store`. The loader has already refused any status
    /// but 2xx and a conditional request's 304.
    private func download(_ url: URL, key: DataLoadKey, headers: [String: String], priority: ImageRequest.Priority) async throws -> Download {
        let response: DataResponse
        do {
            let request = DataRequest(url: url, headers: headers, validators: key.validators, priority: priority)
            response = try await configuration.dataLoader.loadData(for: request)
        } catch let error as DataLoadingError {
            throw Error.dataLoadingFailed(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Error.dataLoadingFailed(.transport(String(describing: error), url: url.absoluteString))
        }
        let http = response.metadata
        var metadata = CachedDataMetadata(freshUntil: http.freshness.freshUntil(receivedAt: configuration.clock.now),
                                          sourceURL: url.absoluteString)
        metadata.etag = http.validators?.etag
        metadata.lastModified = http.validators?.lastModified
        if http.isNotModified { return .notModified(metadata) }
        do throws(ImageDecodingError) {
            metadata.format = try configuration.decoder.detectFormat(of: response.data.prefix(64))
        } catch {
            throw Error.decodingFailed(error)
        }
        if key.storesToDisk, !http.freshness.noStore {
            await storeOnDisk(CachedData(data: response.data, metadata: metadata), for: key.key)
        }
        return .body(response.data, metadata, noStore: http.freshness.noStore)
    }
}
