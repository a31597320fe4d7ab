import Foundation

// The encoded stage: the processed image in an output encoding, made once however many
// callers ask, and kept in the data tiers (memory by byte cost, disk, shared).
extension ImagePipeline {
    /// `request`'s image encoded as `encoding` says: kept bytes when a data tier holds them and
    /// their source is fresh, else the image (``image(for:)``) encoded on the pipeline's
    /// workers — once for all callers that ask at the same time — and kept in
    /// ``Configuration/memoryDataCache`` and, unless the request says otherwise,
    /// ``Configuration/dataCache``.
    ///
    /// ```swift
    /// let answer = try await pipeline.encodedImage(for: request, as: OutputEncoding(format: .fixed(.webp)))
    /// print(answer.format, answer.data.count, answer.keptIn ?? answer.imageTier!)
    /// ```
    /// - Throws: ``Error``; `encodingFailed` when the encoder cannot write the format chosen.
    public func encodedImage(for request: ImageRequest, as encoding: OutputEncoding) async throws -> EncodedImage {
        let start = ContinuousClock.now
        try Task.checkCancellation()
        let plan = plan(for: request)
        let key = encodedKey(plan.keys.image, encoding)
        var encoded: EncodedImage
        if let kept = await keptEncoded(key, in: configuration.memoryDataCache, tier: .memory) {
            encoded = kept
        } else {
            encoded = try await encodes.value(for: key, priority: request.priority.taskPriority) {
                if let kept = await self.keptEncoded(key, in: self.configuration.memoryDataCache, tier: .memory) { return kept }
                if plan.readsDisk, let kept = await self.keptEncoded(key, in: self.configuration.dataCache) {
                    await self.keep(kept, under: key, onDisk: false)
                    return kept
                }
                return try await self.encode(request, as: encoding, key: key, writesDisk: plan.writesDisk)
            }
        }
        encoded.duration = .now - start
        return encoded
    }

    /// The key encoded bytes are kept under: the processed image's, with the encoding.
    func encodedKey(_ image: CacheKey, _ encoding: OutputEncoding) -> CacheKey {
        CacheKey(source: image.source, variant: (image.variant.isEmpty ? "" : image.variant + ";") + "encoded=\(encoding)")
    }

    /// The image made and encoded, then kept.
    private func encode(_ request: ImageRequest, as encoding: OutputEncoding, key: CacheKey, writesDisk: Bool) async throws -> EncodedImage {
        guard let encoder = configuration.encoder else { throw Error.encodingFailed(.unsupportedFormat(encoding.formats.first ?? .png)) }
        let response = try await image(for: request)
        let image = response.image
        let format = encoding.format(for: image, source: response.source?.format, capabilities: encoder.capabilities(for:))
        let imageBytes = image.cost
        let data = try await withMemory(workingMemory(encoding: image, as: format, by: encoder), holding: imageBytes) {
            try await decodeLimiter.run { () throws -> Data in
                do throws(ImageEncodingError) {
                    return try Self.encode(image, as: format, encoding: encoding, by: encoder)
                } catch {
                    throw Error.encodingFailed(error)
                }
            }
        }
        let source = response.source
        let tag = if let source, source.etag != nil || source.lastModified != nil {
            "W/\"" + ContentDigest.hex([key.stringValue, format.rawValue, source.etag ?? "", source.lastModified ?? ""]) + "\""
        } else {
            "\"" + ContentDigest.hex(data, continuing: ContentDigest.fold(Array((key.stringValue + format.rawValue).utf8), into: 0xcbf2_9ce4_8422_2325)) + "\""
        }
        let encoded = EncodedImage(data: data, format: format, size: image.size, entityTag: tag, source: source, keptIn: nil,
                                   imageTier: response.tier)
        await keep(encoded, under: key, onDisk: writesDisk)
        return encoded
    }

    /// `image` in `format`; with a byte budget and a lossy format, encoded again at a lower
    /// quality until it fits or the quality reaches 10: the further over, the larger the step.
    static func encode(_ image: Image, as format: ImageFormat, encoding: OutputEncoding,
                       by encoder: any ImageEncoding) throws(ImageEncodingError) -> Data {
        var quality = encoding.quality(for: format)
        let lossy = encoder.capabilities(for: format)?.quality ?? false
        while true {
            try ImageEncodingError.checkCancellation()
            let options = EncodingOptions(format: format, quality: Double(quality) / 100, lossless: encoding.lossless, metadata: encoding.metadata)
            let bytes = try encoder.encode(image, options: options)
            guard let maxBytes = encoding.maxBytes, bytes.count > maxBytes, quality > 10, lossy else { return bytes }
            let over = Double(bytes.count) / Double(maxBytes)
            quality = max(10, Int(Double(quality) * (over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75)))
        }
    }

    /// Bytes kept under `key` in `cache` while their source is fresh, reported as found in
    /// `tier` (else the tier the cache names); a failing cache is a miss.
    private func keptEncoded(_ key: CacheKey, in cache: (any DataCaching)?, tier: ImageResponse.Tier? = nil) async -> EncodedImage? {
        guard let cache else { return nil }
        let cached: CachedData?
        do {
            cached = try await cache.cachedData(for: key)
        } catch {
            configuration.logger.warning("encoded image cache read failed, treating as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
        guard let cached, !cached.metadata.isStale(at: configuration.clock.now), let format = cached.metadata.format,
              let size = cached.metadata.pixelSize, let tag = cached.metadata.etag else { return nil }
        let source = CachedDataMetadata(lastModified: cached.metadata.lastModified, freshUntil: cached.metadata.freshUntil)
        return EncodedImage(data: cached.data, format: format, size: size, entityTag: tag, source: source, keptIn: tier ?? cached.tier,
                            imageTier: nil)
    }

    /// Keeps `encoded` in memory and, with `onDisk`, in the data cache: its tag in the
    /// metadata's `etag`, the source's `Last-Modified` and freshness beside it.
    private func keep(_ encoded: EncodedImage, under key: CacheKey, onDisk: Bool) async {
        let metadata = CachedDataMetadata(format: encoded.format, pixelSize: encoded.size, etag: encoded.entityTag,
                                          lastModified: encoded.source?.lastModified, freshUntil: encoded.source?.freshUntil)
        let entry = CachedData(data: encoded.data, metadata: metadata)
        for cache in [configuration.memoryDataCache, onDisk ? configuration.dataCache : nil].compactMap({ $0 }) {
            do {
                try await cache.store(entry, for: key)
            } catch {
                configuration.logger.warning("encoded image cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }
}
