import Foundation

/// Loads images through memory, disk and network, decoding at the size that will be shown.
///
/// 1. The memory cache holds processed images: a hit returns without suspending on any actor.
/// 2. The disk cache holds original bytes, so one download serves every target size: a hit
///    is decoded at the target size, processed and put in memory.
/// 3. Otherwise the bytes are downloaded — once per source however many callers ask —
///    checked, stored on disk, decoded, processed and put in memory.
///
/// Identical requests in flight share one load. A caller that cancels gets
/// `CancellationError` while the others still get their image; when every caller has left,
/// the load itself is cancelled. Failures reach callers as ``Error`` and are never cached.
///
/// ```swift
/// let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, decoder: codecs,
///                                                   imageCache: memory, dataCache: disk))
/// let response = try await pipeline.image(for: ImageRequest(url: url, targetSize: .init(width: 200, height: 200)))
/// print(response.tier, response.duration)
/// ```
public final class ImagePipeline: ImageProviding {
    /// The parts this pipeline uses.
    public let configuration: Configuration

    let imageLoads = TaskCoalescer<ImageLoadKey, LoadedImage>()
    let dataLoads = TaskCoalescer<DataLoadKey, Download>()
    let encodes = TaskCoalescer<CacheKey, EncodedImage>()
    let decodeLimiter: AsyncLimiter
    let loadLimiter: AsyncLimiter
    let originLimiter: KeyedLimiter?
    let reductionSources = Locked(ReductionSources())

    /// Creates a pipeline from its parts.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.decodeLimiter = AsyncLimiter(limit: configuration.maxConcurrentDecodes)
        self.loadLimiter = AsyncLimiter(limit: configuration.maxConcurrentLoads)
        self.originLimiter = configuration.maxConcurrentLoadsPerOrigin.map { KeyedLimiter(limit: $0) }
    }

    public func image(for request: ImageRequest) async throws -> ImageResponse {
        let start = ContinuousClock.now
        try Task.checkCancellation()
        let plan = plan(for: request)
        if let image = cachedImage(plan) {
            return ImageResponse(image: image, tier: .memory, duration: .now - start)
        }
        let loaded = try await imageLoads.value(for: plan.coalescingKey, priority: request.priority.taskPriority) {
            // A load holds its slot from the disk lookup to the decoded image, so downloads
            // cannot run ahead of decoding and pile up bodies in memory.
            try await self.withLoadSlot(for: plan.request.source) { try await self.load(plan) }
        }
        return ImageResponse(image: loaded.image, tier: loaded.tier, duration: .now - start, source: loaded.source)
    }

    /// Runs `work` in a load slot, within the share of `source`'s origin; the share is taken
    /// first, so an origin's waiting loads hold no slot.
    func withLoadSlot<T: Sendable>(for source: ImageSource, _ work: @Sendable () async throws -> T) async throws -> T {
        guard let originLimiter else { return try await loadLimiter.withSlot(work) }
        return try await originLimiter.withSlot(for: source.origin) { try await loadLimiter.withSlot(work) }
    }

    /// Runs CPU-bound `work` (encoding the image a caller got, say) on the pipeline's workers:
    /// a thread of its own, within ``Configuration/maxConcurrentDecodes`` together with the
    /// pipeline's own decodes, off Swift's cooperative threads and Dispatch's global queue;
    /// once the memory budget, if any, has room for the `reserving` bytes it will hold.
    /// - Throws: ``Error/memoryBudget(_:)`` when the budget turns it away, or what `work` throws.
    public func performOnWorkers<T: Sendable>(reserving bytes: Int = 0, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withMemory(bytes) { try await decodeLimiter.run(work) }
    }

    /// The processed image for `request` if the memory cache holds it.
    public func cachedImage(for request: ImageRequest) -> Image? {
        cachedImage(plan(for: request))
    }

    /// The keys `request` is cached under in this pipeline (its URL normalised by
    /// ``Configuration/urlNormalization``): the processed image's and the original bytes'.
    public func keys(for request: ImageRequest) -> CacheKeys {
        var request = request
        if request.customCacheKey == nil, let version = LocalFileVersion.of(request.source) {
            request.customCacheKey = request.source.cacheIdentifier(normalizing: configuration.urlNormalization) + "@v=" + version
        }
        return CacheKeys(image: request.imageKey(normalizing: configuration.urlNormalization),
                         data: request.dataKey(normalizing: configuration.urlNormalization))
    }

    /// What `request` will do in this pipeline.
    func plan(for request: ImageRequest) -> LoadPlan {
        LoadPlan(request: request, keys: keys(for: request), configuration: configuration)
    }

    /// How many callers wait on the load `request` would join (for tests and diagnostics).
    package func waitingCallers(for request: ImageRequest) async -> Int {
        await imageLoads.waiterCount(for: plan(for: request).coalescingKey)
    }

    /// How many callers wait on the encode `request` in `encoding` would join (for tests).
    package func waitingCallers(for request: ImageRequest, as encoding: OutputEncoding) async -> Int {
        await encodes.waiterCount(for: encodedKey(plan(for: request).keys.image, encoding))
    }

    /// How many shared image loads, shared downloads and shared encodes this pipeline has started.
    package func startedLoads() async -> (images: Int, downloads: Int, encodes: Int) {
        (await imageLoads.startedCount, await dataLoads.startedCount, await encodes.startedCount)
    }
}
