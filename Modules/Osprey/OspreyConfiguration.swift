import Foundation
import Logging
import OspreyCodec
import OspreyDiskCache
import OspreyDomain
import OspreyMemoryCache
import OspreyNetwork

/// Everything a ready pipeline needs, with defaults a Kingfisher or Nuke user would expect:
/// a memory cache (the lesser of 512 MB and 20% of memory), a 256 MB disk cache in the XDG
/// cache folder, the libcurl loader (6 transfers at once) and every codec.
/// `ImagePipeline.Configuration.default` is this with its defaults.
///
/// ```swift
/// import Osprey
///
/// let pipeline = ImagePipeline(configuration: OspreyConfiguration(diskLimit: 1_000_000_000).pipelineConfiguration)
/// let response = try await pipeline.image(for: ImageRequest(url: url, targetSize: PixelSize(width: 200, height: 200)))
/// ```
public struct OspreyConfiguration: Sendable {
    /// The disk cache's folder (default: `$XDG_CACHE_HOME/osprey`, else `~/.cache/osprey`);
    /// `nil` turns the disk tier off.
    public var cacheDirectory: URL?
    /// The disk cache's size limit in bytes (default 256 MB).
    public var diskLimit: Int
    /// The memory cache's cost limit in bytes; 0 turns the memory tier off.
    public var memoryLimit: Int
    /// What goes to disk (default: the original bytes).
    public var diskStorage: DiskStoragePolicy
    /// How URLs become cache keys.
    public var urlNormalization: URLNormalization
    /// The network loader's limits, timeouts and retries.
    public var network: CurlDataLoader.Configuration
    /// Pixel and byte limits for decoding untrusted images.
    public var decodingLimits: DecodingLimits
    /// Decodes and processing runs at once (default: one per core).
    public var maxConcurrentDecodes: Int
    /// The most loads one origin may hold at once (`ImagePipeline.Configuration
    /// .maxConcurrentLoadsPerOrigin`); `nil` (the default): no share. A server fetching from
    /// origins it does not control sets it, so one slow origin cannot hold every slot.
    public var maxConcurrentLoadsPerOrigin: Int?
    /// Loaders of URL schemes of your own, beside `http`, `https`, `file` and `data`
    /// (`SchemeDataLoader`).
    public var loaders: [String: any DataLoading] = [:]
    /// The S3-compatible store `s3://bucket/key` URLs are fetched from (`S3DataLoader`,
    /// through the network loader); `nil` (the default): `s3` URLs are not fetched.
    public var s3Store: S3DataLoader.Store?
    /// The Google Cloud Storage `gs://bucket/object` URLs are fetched from (`GCSDataLoader`);
    /// `nil` (the default): `gs` URLs are not fetched.
    public var gcsStore: GCSDataLoader.Store?
    /// The Azure Blob Storage account `abs://container/blob` URLs are fetched from
    /// (`ABSDataLoader`); `nil` (the default): `abs` URLs are not fetched.
    public var absStore: ABSDataLoader.Store?
    /// The most pixels a processed image may have (`ImagePipeline.Configuration
    /// .maxResultPixels`); `nil` (the default): no limit.
    public var maxResultPixels: Int?
    /// Decoders of your own, asked before the built-in ones (`ImageCodec.register(_:)`): a
    /// format of your own, or your own decoder of a built-in one.
    public var decoders: [any ImageDecoding] = []
    /// Encoders of your own, each for the formats it declares (`ImageCodec.register(_:)`).
    public var encoders: [any ImageEncoding] = []
    /// The bytes of encoded images kept in memory by the encoded stage
    /// (`ImagePipeline.encodedImage(for:as:)`, a `MemoryDataCache`); 0 (the default): none.
    public var encodedMemoryLimit: Int = 0
    /// A cache the machines of a fleet share, behind the disk cache (default: none), such as
    /// `OspreyRedisCache`'s `RedisDataCache`. With it, the data cache is a `TieredDataCache`:
    /// disk, then the shared cache, then the network; responses from it report the `shared` tier.
    public var sharedCache: (any DataCaching)?
    /// The memory budget in bytes (`ImagePipeline.Configuration.memoryBudget`, a
    /// `MemoryBudget`): decodes, processing and encodes are admitted while their estimates,
    /// the memory caches and the process's own memory fit it, and while the process's
    /// resident memory, the estimate and a margin do. The process's own is its resident
    /// memory when the pipeline is built plus the margin (a tenth of the budget, 32 MB at
    /// least), for the allocator's slack, downloads and connections. The memory cache, the encoded cache and
    /// the loader's idle body buffers give way first. `nil` (the default): no budget.
    public var memoryBudget: Int?
    /// The longest a piece of work waits for room in the budget before it is turned away
    /// (default 5 s).
    public var memoryBudgetWait: Duration = .seconds(5)
    /// Where the pipeline reports problems it works around.
    public var logger: Logger

    /// Creates a configuration; every value has a default.
    public init(
        cacheDirectory: URL? = DiskCache.Configuration.defaultDirectory,
        diskLimit: Int = 256_000_000,
        memoryLimit: Int = MemoryCache.Configuration.defaultCostLimit,
        diskStorage: DiskStoragePolicy = .originalData,
        urlNormalization: URLNormalization = URLNormalization(),
        network: CurlDataLoader.Configuration = CurlDataLoader.Configuration(),
        decodingLimits: DecodingLimits = .default,
        maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
        sharedCache: (any DataCaching)? = nil,
        logger: Logger = Logger(label: "osprey")
    ) {
        self.cacheDirectory = cacheDirectory
        self.diskLimit = diskLimit
        self.memoryLimit = memoryLimit
        self.diskStorage = diskStorage
        self.urlNormalization = urlNormalization
        self.network = network
        self.decodingLimits = decodingLimits
        self.maxConcurrentDecodes = maxConcurrentDecodes
        self.sharedCache = sharedCache
        self.logger = logger
    }

    /// The pipeline configuration: the parts built. A disk cache that cannot be opened is
    /// logged and left out, so building never fails.
    public var pipelineConfiguration: ImagePipeline.Configuration {
        let disk: DiskCache?
        do {
            disk = try cacheDirectory.map { try DiskCache(configuration: .init(directory: $0, sizeLimit: diskLimit)) }
        } catch {
            logger.error("the disk cache cannot be opened, so the pipeline runs without it: \(error)")
            disk = nil
        }
        return configuration(disk: disk)
    }

    /// Builds the parts and a pipeline over them.
    /// - Throws: `DataCacheError` when the disk cache cannot be opened.
    public func makePipeline() throws -> ImagePipeline {
        try makeParts().pipeline
    }

    /// Builds the parts and a pipeline, and returns the caches too (for statistics and clearing).
    /// - Throws: `DataCacheError` when the disk cache cannot be opened.
    public func makeParts() throws -> (pipeline: ImagePipeline, memory: MemoryCache?, disk: DiskCache?) {
        let disk = try cacheDirectory.map { try DiskCache(configuration: .init(directory: $0, sizeLimit: diskLimit)) }
        let configuration = configuration(disk: disk)
        return (ImagePipeline(configuration: configuration), configuration.imageCache as? MemoryCache, disk)
    }

    /// The codec the pipeline decodes and encodes with: the standard formats within
    /// ``decodingLimits``, with ``decoders`` and ``encoders`` registered over them.
    public var codec: ImageCodec {
        var codec = ImageCodec(limits: decodingLimits)
        for decoder in decoders { codec.register(decoder) }
        for encoder in encoders { codec.register(encoder) }
        return codec
    }

    private func configuration(disk: DiskCache?) -> ImagePipeline.Configuration {
        let memory = memoryLimit > 0 ? MemoryCache(configuration: .init(costLimit: memoryLimit)) : nil
        let codec = self.codec
        var dataCache: (any DataCaching)? = disk
        if let sharedCache {
            dataCache = disk.map { TieredDataCache(local: $0, shared: sharedCache, logger: logger) } ?? sharedCache
        }
        let curl = CurlDataLoader(configuration: network)
        var loader = SchemeDataLoader.standard(network: curl, maxFileSize: decodingLimits.maxInputBytes)
        if let s3Store { loader = loader.adding(S3DataLoader(store: s3Store, network: curl), for: "s3") }
        if let gcsStore { loader = loader.adding(GCSDataLoader(store: gcsStore, network: curl), for: "gs") }
        if let absStore { loader = loader.adding(ABSDataLoader(store: absStore, network: curl), for: "abs") }
        let encodedMemory = encodedMemoryLimit > 0 ? MemoryDataCache(costLimit: encodedMemoryLimit) : nil
        var configuration = ImagePipeline.Configuration(
            dataLoader: loaders.reduce(loader) { $0.adding($1.value, for: $1.key) },
            decoder: codec, imageCache: memory, dataCache: dataCache, memoryDataCache: encodedMemory,
            encoder: codec, diskStorage: diskStorage, urlNormalization: urlNormalization,
            maxConcurrentDecodes: maxConcurrentDecodes,
            maxConcurrentLoads: network.maxConcurrentTransfers + maxConcurrentDecodes, logger: logger
        )
        configuration.maxConcurrentLoadsPerOrigin = maxConcurrentLoadsPerOrigin
        configuration.maxResultPixels = maxResultPixels
        if let memoryBudget {
            let caches: [any MemoryTrimming] = [memory as (any MemoryTrimming)?, encodedMemory].compactMap { $0 } + [curl.idleBodyBuffers]
            // What no estimate counts (connections, answers on their way, the allocator's slack)
            // does not shrink with the budget: a tenth of it, and 32 MB at least.
            let margin = max(memoryBudget / 10, 32_000_000)
            configuration.memoryBudget = MemoryBudget(limit: memoryBudget, overhead: (ProcessMemory.residentBytes() ?? 0) + margin,
                                                      caches: caches, maxWait: memoryBudgetWait, resident: ProcessMemory.residentBytes,
                                                      headroom: margin, reclaim: MemoryTuning.returnFreeMemoryToTheSystem)
        }
        return configuration
    }
}
