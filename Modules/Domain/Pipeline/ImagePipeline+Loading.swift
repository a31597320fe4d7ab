import Foundation

extension ImagePipeline {
    /// The work one shared image load does: find the bytes, decode, process, fill the caches.
    func load(_ request: ImageRequest, keys: (image: CacheKey, data: CacheKey)) async throws -> LoadedImage {
        // Another load may have filled memory since the caller looked.
        if let image = cachedImage(for: request, key: keys.image) { return LoadedImage(image: image, tier: .memory) }
        let url: URL
        switch request.source {
        case .file(let path):
            let image = try await decodeAndProcess(.file(path: path), for: request).image
            storeInMemory(image, for: request, key: keys.image)
            return LoadedImage(image: image, tier: .file)
        case .url(let sourceURL): url = sourceURL
        }
        let storage = storage(for: request)
        // A processed variant is written only when it differs from the original.
        let processedFormat = keys.image == keys.data ? nil : storage.processedFormat.flatMap { configuration.encoder == nil ? nil : $0 }

        let writes = configuration.dataCache != nil && !request.options.contains(.disableDiskCacheWrites)
        let variantFormat = writes ? processedFormat : nil
        // 1. The disk cache: the processed variant (when this policy writes one), then the original.
        var stale: DiskEntry?
        for candidate in diskCandidates(keys: keys, processed: processedFormat != nil) {
            guard let cached = await diskCachedData(for: candidate.key, request: request) else { continue }
            let entry = DiskEntry(key: candidate.key, cached: cached, isProcessed: candidate.isProcessed)
            if !cached.metadata.isStale(at: configuration.clock.now) || request.options.contains(.returnCacheDataDontLoad) {
                return try await use(entry, for: request, keys: keys, variantFormat: variantFormat)
            }
            stale = entry
            break
        }
        if request.options.contains(.returnCacheDataDontLoad) { throw Error.notCached(keys.data) }

        // 2. The network: a conditional GET when a stale entry has validators.
        let validators = stale?.cached.metadata.validators
        let key = DataLoadKey(key: keys.data, storesToDisk: writes && storage.storesOriginal, validators: validators)
        let fetched: SourceFetch
        do {
            fetched = try await dataLoads.value(for: key, priority: request.priority.taskPriority) {
                try await self.fetch(url, key: key, priority: request.priority)
            }
        } catch let error as Error {
            // Stale bytes are better than none when the origin cannot answer (stale-if-error).
            guard let stale, case .dataLoadingFailed = error else { throw error }
            configuration.logger.info("serving a stale entry: \(error)", metadata: ["key": "\(stale.key)"])
            return try await use(stale, for: request, keys: keys, variantFormat: nil)
        }
        if fetched.notModified, let stale {
            // 304: the bytes on disk are current; only their freshness changes.
            var metadata = stale.cached.metadata
            metadata.freshUntil = fetched.metadata.freshUntil
            metadata.etag = fetched.metadata.etag ?? metadata.etag
            metadata.lastModified = fetched.metadata.lastModified ?? metadata.lastModified
            if writes { await updateDiskMetadata(metadata, for: stale.key) }
            return try await use(DiskEntry(key: stale.key, cached: CachedData(data: stale.cached.data, metadata: metadata, tier: stale.cached.tier),
                                           isProcessed: stale.isProcessed),
                                 for: request, keys: keys, variantFormat: variantFormat)
        }
        let image = try await decodeOriginal(fetched.data, metadata: fetched.metadata, for: request, keys: keys,
                                             variantFormat: fetched.noStore ? nil : variantFormat)
        return LoadedImage(image: image, tier: .network)
    }

    /// Decodes original bytes at the target size with the processors, writes the processed
    /// variant when `variantFormat` asks for one, and fills memory.
    private func decodeOriginal(
        _ data: Data, metadata: CachedDataMetadata, for request: ImageRequest, keys: (image: CacheKey, data: CacheKey),
        variantFormat: StorageFormat?
    ) async throws -> Image {
        let (image, encoded) = try await decodeAndProcess(.data(data), for: request, encodingAs: variantFormat)
        if let encoded {
            var variant = metadata
            variant.format = encoded.format
            variant.pixelSize = image.size
            await storeOnDisk(CachedData(data: encoded.data, metadata: variant), for: keys.image)
        }
        storeInMemory(image, for: request, key: keys.image)
        return image
    }

    /// Where a request's image may be on disk, in the order to look. The original is read
    /// even under a processed-only policy: an earlier policy may have written it.
    private func diskCandidates(keys: (image: CacheKey, data: CacheKey), processed: Bool) -> [(key: CacheKey, isProcessed: Bool)] {
        processed ? [(keys.image, true), (keys.data, false)] : [(keys.data, false)]
    }

    /// Decodes a disk entry — a processed variant as it is; an original at the target size
    /// with the processors, writing its variant when the policy asks — and fills memory.
    private func use(
        _ entry: DiskEntry, for request: ImageRequest, keys: (image: CacheKey, data: CacheKey), variantFormat: StorageFormat?
    ) async throws -> LoadedImage {
        guard entry.isProcessed else {
            let image = try await decodeOriginal(entry.cached.data, metadata: entry.cached.metadata, for: request, keys: keys,
                                                 variantFormat: variantFormat)
            return LoadedImage(image: image, tier: entry.cached.tier)
        }
        let decoder = configuration.decoder
        let data = entry.cached.data
        let image = try await decodeLimiter.run {
            do throws(ImageDecodingError) {
                return try decoder.decode(.data(data), options: DecodingOptions(colorHandling: request.colorHandling, frames: request.frames))
            } catch {
                throw Error.decodingFailed(error)
            }
        }
        storeInMemory(image, for: request, key: keys.image)
        return LoadedImage(image: image, tier: entry.cached.tier)
    }

    private func storeInMemory(_ image: Image, for request: ImageRequest, key: CacheKey) {
        if !request.options.contains(.disableMemoryCacheWrites) { configuration.imageCache?.store(image, for: key) }
    }

    /// The disk cache's entry under `key`; a failing cache counts as a miss.
    private func diskCachedData(for key: CacheKey, request: ImageRequest) async -> CachedData? {
        guard let cache = configuration.dataCache, !request.options.contains(.disableDiskCacheReads) else { return nil }
        do {
            return try await cache.cachedData(for: key)
        } catch {
            configuration.logger.warning("disk cache read failed, treating as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    private func storeOnDisk(_ entry: CachedData, for key: CacheKey) async {
        guard let cache = configuration.dataCache else { return }
        do {
            try await cache.store(entry, for: key)
        } catch {
            // The image is still good; only the disk tier missed out.
            configuration.logger.warning("disk cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    private func updateDiskMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async {
        do {
            try await configuration.dataCache?.updateMetadata(metadata, for: key)
        } catch {
            configuration.logger.warning("disk cache metadata update failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// Downloads `url` (conditionally when the key carries validators), checks that a body
    /// is an image, and stores the original bytes on disk unless the server said `no-store`.
    private func fetch(_ url: URL, key: DataLoadKey, priority: ImageRequest.Priority) async throws -> SourceFetch {
        let response: DataResponse
        do {
            response = try await configuration.dataLoader.loadData(for: DataRequest(url: url, validators: key.validators, priority: priority))
        } catch let error as DataLoadingError {
            throw Error.dataLoadingFailed(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Error.dataLoadingFailed(.transport(String(describing: error), url: url.absoluteString))
        }
        let http = response.metadata
        var metadata = CachedDataMetadata(
            etag: http.headers["etag"], lastModified: http.headers["last-modified"],
            freshUntil: http.freshness.freshUntil(receivedAt: configuration.clock.now), sourceURL: url.absoluteString
        )
        if http.isNotModified && key.validators != nil {
            return SourceFetch(data: Data(), metadata: metadata, notModified: true, noStore: http.freshness.noStore)
        }
        guard (200..<300).contains(http.statusCode) else {
            throw Error.dataLoadingFailed(.httpStatus(http.statusCode, url: url.absoluteString))
        }
        do throws(ImageDecodingError) {
            metadata.format = try configuration.decoder.detectFormat(of: response.data.prefix(64))
        } catch {
            throw Error.decodingFailed(error)
        }
        if key.storesToDisk, !http.freshness.noStore {
            await storeOnDisk(CachedData(data: response.data, metadata: metadata), for: key.key)
        }
        return SourceFetch(data: response.data, metadata: metadata, notModified: false, noStore: http.freshness.noStore)
    }

    /// Decodes at the request's target size and applies its processors, bounded in
    /// concurrency; encodes the result too when `format` asks for a processed disk entry.
    private func decodeAndProcess(
        _ input: ImageInput, for request: ImageRequest, encodingAs format: StorageFormat? = nil
    ) async throws -> (image: Image, encoded: (data: Data, format: ImageFormat)?) {
        let decoder = configuration.decoder
        let encoder = configuration.encoder
        let options = DecodingOptions(targetSize: request.targetSize, contentMode: request.contentMode,
                                      colorHandling: request.colorHandling, frames: request.frames)
        let processors = request.processors
        let logger = configuration.logger
        return try await decodeLimiter.run {
            var image: Image
            do throws(ImageDecodingError) {
                image = try decoder.decode(input, options: options)
            } catch {
                throw Error.decodingFailed(error)
            }
            for processor in processors {
                try Task.checkCancellation()
                do throws(ImageProcessingError) {
                    image = try Self.process(image, with: processor)
                } catch {
                    throw Error.processingFailed(processor: processor.identifier, error)
                }
            }
            guard let format, let encoder else { return (image, nil) }
            let encoding = format.options(for: image)
            do throws(ImageEncodingError) {
                return (image, (try encoder.encode(image, options: encoding), encoding.format))
            } catch {
                logger.warning("could not encode the processed image for the disk cache: \(error)")
                return (image, nil)
            }
        }
    }
}

extension ImagePipeline {
    /// `image` through `processor`: every frame of an animation, the profile kept.
    static func process(_ image: Image, with processor: any ImageProcessing) throws(ImageProcessingError) -> Image {
        var result = try image.mappingFrames(processor.process)
        result.colorProfile = image.colorProfile
        return result
    }
}
