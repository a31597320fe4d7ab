import Foundation

extension ImagePipeline {
    /// The work one shared image load does: find the bytes, decode, process, fill memory.
    func load(_ request: ImageRequest) async throws -> LoadedImage {
        // Another load may have filled memory since the caller looked.
        if let image = cachedImage(for: request) { return LoadedImage(image: image, tier: .memory) }
        let (input, tier) = try await encodedInput(for: request)
        let image = try await decodeAndProcess(input, for: request)
        if !request.options.contains(.disableMemoryCacheWrites) {
            configuration.imageCache?.store(image, for: request.imageKey)
        }
        return LoadedImage(image: image, tier: tier)
    }

    /// The encoded bytes for `request`, from the disk cache or the source.
    private func encodedInput(for request: ImageRequest) async throws -> (ImageInput, ImageResponse.Tier) {
        let url: URL
        switch request.source {
        case .file(let path): return (.file(path: path), .file)
        case .url(let sourceURL): url = sourceURL
        }
        if let data = await diskCachedData(for: request) { return (.data(data), .disk) }
        if request.options.contains(.returnCacheDataDontLoad) { throw Error.notCached(request.dataKey) }
        let storesToDisk = configuration.dataCache != nil && !request.options.contains(.disableDiskCacheWrites)
        let key = DataLoadKey(key: request.dataKey, storesToDisk: storesToDisk)
        let data = try await dataLoads.value(for: key, priority: request.priority.taskPriority) {
            try await self.download(url, key: key, priority: request.priority)
        }
        return (.data(data), .network)
    }

    /// The disk cache's bytes for `request`; a failing cache counts as a miss.
    private func diskCachedData(for request: ImageRequest) async -> Data? {
        guard let cache = configuration.dataCache, !request.options.contains(.disableDiskCacheReads) else { return nil }
        do {
            return try await cache.cachedData(for: request.dataKey)?.data
        } catch {
            configuration.logger.warning("disk cache read failed, treating as a miss", metadata: ["key": "\(request.dataKey)", "error": "\(error)"])
            return nil
        }
    }

    /// Downloads `url`, checks that the bytes are an image, and stores them on disk.
    private func download(_ url: URL, key: DataLoadKey, priority: ImageRequest.Priority) async throws -> Data {
        let response: DataResponse
        do {
            response = try await configuration.dataLoader.loadData(for: DataRequest(url: url, priority: priority))
        } catch let error as DataLoadingError {
            throw Error.dataLoadingFailed(error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Error.dataLoadingFailed(.transport(String(describing: error), url: url.absoluteString))
        }
        let metadata = response.metadata
        guard (200..<300).contains(metadata.statusCode) else {
            throw Error.dataLoadingFailed(.httpStatus(metadata.statusCode, url: url.absoluteString))
        }
        let format: ImageFormat
        do throws(ImageDecodingError) {
            format = try configuration.decoder.detectFormat(of: response.data.prefix(64))
        } catch {
            throw Error.decodingFailed(error)
        }
        if key.storesToDisk, !metadata.freshness.noStore, let cache = configuration.dataCache {
            let entry = CachedData(data: response.data, metadata: CachedDataMetadata(
                format: format,
                etag: metadata.headers["etag"],
                lastModified: metadata.headers["last-modified"],
                freshUntil: metadata.freshness.freshUntil(receivedAt: configuration.clock.now),
                sourceURL: url.absoluteString
            ))
            do {
                try await cache.store(entry, for: key.key)
            } catch {
                // The image is still good; only the disk tier missed out.
                configuration.logger.warning("disk cache write failed", metadata: ["key": "\(key.key)", "error": "\(error)"])
            }
        }
        return response.data
    }

    /// Decodes at the request's target size and applies its processors, bounded in concurrency.
    private func decodeAndProcess(_ input: ImageInput, for request: ImageRequest) async throws -> Image {
        let decoder = configuration.decoder
        let options = DecodingOptions(targetSize: request.targetSize, contentMode: request.contentMode)
        let processors = request.processors
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
                    image = try processor.process(image)
                } catch {
                    throw Error.processingFailed(processor: processor.identifier, error)
                }
            }
            return image
        }
    }
}
