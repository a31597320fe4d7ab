import Foundation
import Logging

extension ImagePipeline {
    /// The parts a pipeline is built from. Each is a port, so any of them can be swapped.
    public struct Configuration: Sendable {
        /// Fetches bytes for URL sources.
        public var dataLoader: any DataLoading
        /// Decodes bytes at the target size; chosen formats are sniffed by magic bytes.
        public var decoder: any ImageDecoding
        /// Holds processed images in memory; `nil` disables the memory tier.
        public var imageCache: (any ImageCaching)?
        /// Holds original bytes, usually on disk; `nil` disables the disk tier.
        public var dataCache: (any DataCaching)?
        /// Holds encoded images in memory by byte cost, in front of ``dataCache``, for the
        /// encoded stage (``ImagePipeline/encodedImage(for:as:)``); `nil`: none.
        public var memoryDataCache: (any DataCaching)?
        /// Encodes processed images when ``diskStorage`` writes them; without one they are not written.
        public var encoder: (any ImageEncoding)?
        /// What goes to the disk cache (default: the original bytes); a request may override it.
        public var diskStorage: DiskStoragePolicy
        /// How URLs become cache keys, for example leaving out signed-URL tokens.
        public var urlNormalization: URLNormalization
        /// Wall-clock time, for HTTP freshness.
        public var clock: any Clock
        /// How many decodes and processing runs may go at once (default: one per core).
        public var maxConcurrentDecodes: Int
        /// Loads past the memory cache (disk lookup, download, decode, processing) at once
        /// (default 8: six transfers and two decodes). Bounds the encoded bodies held in
        /// memory: a download that finishes waits for its decode inside its slot.
        public var maxConcurrentLoads: Int
        /// The most of those loads one origin (scheme, host and port; local files count as
        /// one) may hold at once, so a slow origin cannot hold every slot and queue the loads
        /// of other origins and of cached images behind it. `nil` (the default): no share.
        public var maxConcurrentLoadsPerOrigin: Int?
        /// The most pixels a processed image may have, its frames counted together, worked
        /// out from the decoded size and the processors' ``ImageProcessing/outputSize(for:)``
        /// before any processor runs; larger is ``ImagePipeline/Error/resultTooLarge(_:frames:limit:)``.
        /// `nil` (the default): no limit. A server whose URLs choose padding, zoom or
        /// enlarging sets it.
        public var maxResultPixels: Int?
        /// The memory decodes, processing and encodes may take at once, the memory caches
        /// counted against it: each reserves its estimate from the header before it starts,
        /// and waits for room or is refused (``ImagePipeline/Error/memoryBudget(_:)``).
        /// `nil` (the default): no budget.
        public var memoryBudget: MemoryBudget?
        /// Where the pipeline reports cache failures it works around.
        public var logger: Logger

        /// Creates a configuration.
        public init(
            dataLoader: any DataLoading,
            decoder: any ImageDecoding,
            imageCache: (any ImageCaching)? = nil,
            dataCache: (any DataCaching)? = nil,
            memoryDataCache: (any DataCaching)? = nil,
            encoder: (any ImageEncoding)? = nil,
            diskStorage: DiskStoragePolicy = .originalData,
            urlNormalization: URLNormalization = URLNormalization(),
            clock: any Clock = SystemClock(),
            maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
            maxConcurrentLoads: Int = 8,
            logger: Logger = Logger(label: "osprey.pipeline")
        ) {
            self.dataLoader = dataLoader
            self.decoder = decoder
            self.imageCache = imageCache
            self.dataCache = dataCache
            self.memoryDataCache = memoryDataCache
            self.encoder = encoder
            self.diskStorage = diskStorage
            self.urlNormalization = urlNormalization
            self.clock = clock
            self.maxConcurrentDecodes = maxConcurrentDecodes
            self.maxConcurrentLoads = maxConcurrentLoads
            self.maxConcurrentLoadsPerOrigin = nil
            self.maxResultPixels = nil
            self.memoryBudget = nil
            self.logger = logger
        }
    }
}
