import Foundation
import Logging
import OspreyCodec
import OspreyDiskCache
import OspreyDomain
import OspreyMemoryCache
import OspreyNetwork
import OspreyRedisCache

/// Everything a ready pipeline needs, with defaults a Kingfisher or Nuke user would expect:
/// a memory cache (the lesser of 512 MB and 20% of memory), a 256 MB disk cache in the XDG
/// cache folder, the libcurl loader (6 transfers at once) and the JPEG, PNG and WebP codecs.
///
/// ```swift
/// import Osprey
///
/// let pipeline = try OspreyConfiguration().makePipeline()
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
    /// A cache the machines of a fleet share, behind the disk cache (default: none). With it,
    /// the data cache is a `TieredDataCache`: disk, then Redis, then the network; responses
    /// from it report the `shared` tier.
    public var sharedCache: RedisDataCache.Configuration?
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
        sharedCache: RedisDataCache.Configuration? = nil,
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

    /// Builds the parts and a pipeline over them.
    /// - Throws: `DataCacheError` when the disk cache cannot be opened.
    public func makePipeline() throws -> ImagePipeline {
        try makeParts().pipeline
    }

    /// Builds the parts and a pipeline, and returns the caches too (for statistics and clearing).
    public func makeParts() throws -> (pipeline: ImagePipeline, memory: MemoryCache?, disk: DiskCache?) {
        let memory = memoryLimit > 0 ? MemoryCache(configuration: .init(costLimit: memoryLimit)) : nil
        let disk = try cacheDirectory.map { try DiskCache(configuration: .init(directory: $0, sizeLimit: diskLimit)) }
        let codec = ImageCodec(limits: decodingLimits)
        var dataCache: (any DataCaching)? = disk
        if let sharedCache {
            let shared = RedisDataCache(configuration: sharedCache, logger: logger)
            dataCache = disk.map { TieredDataCache(local: $0, shared: shared, logger: logger) } ?? shared
        }
        let pipeline = ImagePipeline(configuration: .init(
            dataLoader: CurlDataLoader(configuration: network), decoder: codec, imageCache: memory, dataCache: dataCache,
            encoder: codec, diskStorage: diskStorage, urlNormalization: urlNormalization,
            maxConcurrentDecodes: maxConcurrentDecodes,
            maxConcurrentLoads: network.maxConcurrentTransfers + maxConcurrentDecodes, logger: logger
        ))
        return (pipeline, memory, disk)
    }
}
