import Foundation

// Stage 3: decode at the target size, process, and store. The only stage that writes the
// memory cache and a processed variant on disk.
extension ImagePipeline {
    /// A disk entry through the last stage: a processed variant is decoded as it is, an
    /// original at the target size with the processors.
    func decodeProcessStore(_ entry: DiskEntry, _ plan: LoadPlan, writesVariant: Bool = true) async throws -> LoadedImage {
        try await decodeProcessStore(.data(entry.cached.data), plan, tier: entry.cached.tier, metadata: entry.cached.metadata,
                                     isProcessed: entry.isProcessed, writesVariant: writesVariant)
    }

    /// Decodes `input`, applies the processors unless it `isProcessed`, writes the processed
    /// variant when the plan asks for one, and fills memory.
    func decodeProcessStore(
        _ input: ImageInput, _ plan: LoadPlan, tier: ImageResponse.Tier, metadata: CachedDataMetadata = CachedDataMetadata(),
        isProcessed: Bool = false, writesVariant: Bool = true
    ) async throws -> LoadedImage {
        let request = plan.request
        let options = isProcessed ? DecodingOptions(colorHandling: request.colorHandling, frames: request.frames) : plan.decodingOptions
        let processors = isProcessed ? [] : request.processors
        let variantFormat = isProcessed || !writesVariant ? nil : plan.variantFormat
        let reduction = isProcessed ? nil : plan.reduction
        let (encoder, logger) = (configuration.encoder, configuration.logger)
        let work = { @Sendable () throws -> (Image, (data: Data, format: ImageFormat)?) in
            let image: Image
            if let reduced = try self.decodeReduced(input, options: options, processors: processors, keepingReductionAt: reduction,
                                                    from: metadata) {
                image = reduced
            } else {
                let decoded = try self.decode(input, options: options, keepingReductionAt: reduction, from: metadata)
                image = try self.process(decoded, with: processors)
            }
            guard let variantFormat, let encoder else { return (image, nil) }
            let encoding = variantFormat.options(for: image, writtenBy: encoder)
            do throws(ImageEncodingError) {
                return (image, (try encoder.encode(image, options: encoding), encoding.format))
            } catch {
                logger.warning("could not encode the processed image for the disk cache: \(error)")
                return (image, nil)
            }
        }
        let working = workingMemory(input, options: options, processors: processors)
        let (image, variant) = try await withMemory(working, holding: Self.heldBytes(input)) { try await decodeLimiter.run(work) }
        if let variant {
            var variantMetadata = metadata
            variantMetadata.format = variant.format
            variantMetadata.pixelSize = image.size
            await storeOnDisk(CachedData(data: variant.data, metadata: variantMetadata), for: plan.keys.image)
        }
        if plan.writesMemory { configuration.imageCache?.store(image, for: plan.keys.image) }
        return LoadedImage(image: image, tier: tier, source: metadata)
    }

    /// The processed image made from the source's reduction in memory, when it covers the
    /// size asked for: no read of the source, no decode.
    func fromReduction(_ plan: LoadPlan) async throws -> LoadedImage? {
        let options = plan.decodingOptions
        let processors = plan.request.processors
        guard let key = plan.reduction, let reduction = configuration.imageCache?.image(for: key) else { return nil }
        let image: Image?
        if let reducible = Reduction.reducibleProcessor(processors, options: options) {
            guard let sourceSize = reductionSources.withLock({ $0.sourceSize(for: key) }),
                  Reduction.covers(reduction, of: sourceSize, for: reducible) else { return nil }
            let working = workingMemory(from: reduction, sourceSize: sourceSize, options: options, processors: processors)
            image = try await withMemory(working) {
                try await decodeLimiter.run { try self.process(reduction, with: processors, sourceSize: sourceSize) }
            }
        } else {
            guard Reduction.covers(reduction, for: options) else { return nil }
            let decoder = configuration.decoder
            let working = workingMemory(from: reduction, sourceSize: nil, options: options, processors: processors)
            image = try await withMemory(working) {
                try await decodeLimiter.run { () throws -> Image? in
                    try decoder.rescale(reduction, options: options).map { try self.process($0, with: processors) }
                }
            }
        }
        guard let image else { return nil }
        if plan.writesMemory { configuration.imageCache?.store(image, for: plan.keys.image) }
        return LoadedImage(image: image, tier: .memory, source: reductionSources.withLock { $0.metadata(for: key) })
    }

    /// `input` decoded for `options`; through a reduction, kept in memory at `reductionKey`
    /// with the `source` it came from, when there is a key and the decoder makes one.
    private func decode(_ input: ImageInput, options: DecodingOptions, keepingReductionAt reductionKey: CacheKey?,
                        from source: CachedDataMetadata) throws -> Image {
        let decoder = configuration.decoder
        do {
            // Only a still is kept and resampled: an animation's frames are decoded as asked.
            if let reductionKey, let reduction = try decoder.decodeReduction(input, options: options), reduction.animation == nil {
                try Task.checkCancellation()
                keep(reduction, at: reductionKey, size: try decoder.sourceSize(of: input, options: options), from: source)
                if let image = decoder.rescale(reduction, options: options) {
                    // A resample that saw the cancellation returns early: its image is not used.
                    try Task.checkCancellation()
                    return image
                }
            }
            return try decoder.decode(input, options: options)
        } catch let error as ImageDecodingError {
            throw error == .cancelled ? CancellationError() : Error.decodingFailed(error)
        }
    }

    /// For a first processor that works from a reduced decode (``ReducibleProcessing``): the
    /// source decoded only as large as it needs, kept in memory when there is a key, and
    /// processed; `nil` when the format has no reduced decode or the processor needs it all.
    private func decodeReduced(_ input: ImageInput, options: DecodingOptions, processors: [any ImageProcessing],
                               keepingReductionAt reductionKey: CacheKey?, from source: CachedDataMetadata) throws -> Image? {
        guard let reducible = Reduction.reducibleProcessor(processors, options: options) else { return nil }
        let decoder = configuration.decoder
        do {
            guard let sourceSize = try decoder.sourceSize(of: input, options: options) else { return nil }
            var reduced = options
            reduced.targetSize = reducible.sufficientSize(forSource: sourceSize)
            guard let reduction = try decoder.decodeReduction(input, options: reduced), reduction.animation == nil else { return nil }
            try Task.checkCancellation()
            if let reductionKey { keep(reduction, at: reductionKey, size: sourceSize, from: source) }
            return try process(reduction, with: processors, sourceSize: sourceSize)
        } catch let error as ImageDecodingError {
            throw error == .cancelled ? CancellationError() : Error.decodingFailed(error)
        }
    }

    private func keep(_ reduction: Image, at key: CacheKey, size: PixelSize?, from source: CachedDataMetadata) {
        configuration.imageCache?.store(reduction, for: key)
        reductionSources.withLock { $0.record(source, size: size, for: key) }
    }

    /// `image` through each of `processors` in turn, once the result's size is known to be
    /// within ``Configuration/maxResultPixels``, checking for cancellation between them. With
    /// `sourceSize`, `image` is a reduced decode of a source of that size, which the first
    /// processor (a ``ReducibleProcessing``) is told.
    func process(_ image: Image, with processors: [any ImageProcessing], sourceSize: PixelSize? = nil) throws -> Image {
        if let limit = configuration.maxResultPixels {
            let size = processors.reduce(sourceSize ?? image.size) { $1.outputSize(for: $0) }
            let frames = image.animation?.frames.count ?? 1
            guard size.area(frames: frames) <= limit else { throw Error.resultTooLarge(size, frames: frames, limit: limit) }
        }
        // Most processors work on 8-bit samples; a chain of ones that only move pixels keeps more.
        var image = processors.allSatisfy(\.keepsHighBitDepth) ? image : image.narrowedToEightBits
        for (index, processor) in processors.enumerated() {
            try Task.checkCancellation()
            do throws(ImageProcessingError) {
                image = try Self.process(image, with: processor, sourceSize: index == 0 ? sourceSize : nil)
            } catch .cancelled {
                throw CancellationError()
            } catch {
                throw Error.processingFailed(processor: processor.identifier, error)
            }
        }
        try Task.checkCancellation()
        return image
    }

    /// `image` through `processor`: every frame of an animation, the profile and metadata kept. With
    /// `sourceSize`, a ``ReducibleProcessing`` is told `image` is a reduced decode of it.
    static func process(_ image: Image, with processor: any ImageProcessing, sourceSize: PixelSize? = nil) throws(ImageProcessingError) -> Image {
        var result: Image
        if let sourceSize, let reducible = processor as? any ReducibleProcessing {
            result = try reducible.process(image, sourceSize: sourceSize)
        } else {
            result = try image.mappingFrames(processor.process)
        }
        result.carryColorAndMetadata(from: image)
        return result
    }

    func storeOnDisk(_ entry: CachedData, for key: CacheKey) async {
        guard let cache = configuration.dataCache else { return }
        do {
            try await cache.store(entry, for: key)
        } catch {
            // The image is still good; only the disk tier missed out.
            configuration.logger.warning("disk cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    func updateDiskMetadata(_ metadata: CachedDataMetadata, for key: CacheKey) async {
        do {
            try await configuration.dataCache?.updateMetadata(metadata, for: key)
        } catch {
            configuration.logger.warning("disk cache metadata update failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }
}
