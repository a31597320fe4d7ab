import Foundation

/// What one request will do, decided once before any stage of its load runs.
struct LoadPlan: Sendable {
    let request: ImageRequest
    let keys: ImagePipeline.CacheKeys
    /// Requests with the same coalescing key share one load.
    let coalescingKey: ImageLoadKey
    let readsMemory: Bool
    let writesMemory: Bool
    let readsDisk: Bool
    let writesDisk: Bool
    /// Downloaded original bytes go to disk.
    let storesOriginal: Bool
    /// A processed variant may be on disk: this policy writes them for processed requests.
    let looksUpVariant: Bool
    /// The format the processed variant is written in; `nil` when none is written.
    let variantFormat: StorageFormat?
    /// Disk entries are used however stale, and the network is never asked.
    let cacheOnly: Bool
    /// Where the source's reduced decode is kept in memory, when this request may use one:
    /// one frame at a target size (or sized by a ``ReducibleProcessing``), with a memory cache
    /// to read, and no processed variant.
    let reduction: CacheKey?

    init(request: ImageRequest, keys: ImagePipeline.CacheKeys, configuration: ImagePipeline.Configuration) {
        let options = request.options
        let storage = request.diskStorage ?? configuration.diskStorage
        let hasDisk = configuration.dataCache != nil
        let writesDisk = hasDisk && !options.contains(.disableDiskCacheWrites)
        // A variant is only worth writing when it differs from the original and can be encoded.
        let variantFormat = keys.isOriginal || configuration.encoder == nil ? nil : storage.processedFormat
        self.request = request
        self.keys = keys
        coalescingKey = ImageLoadKey(key: keys.image, options: options.rawValue, storage: storage)
        readsMemory = configuration.imageCache != nil && !options.contains(.disableMemoryCacheReads)
        writesMemory = configuration.imageCache != nil && !options.contains(.disableMemoryCacheWrites)
        readsDisk = hasDisk && !options.contains(.disableDiskCacheReads)
        self.writesDisk = writesDisk
        storesOriginal = writesDisk && storage.storesOriginal
        looksUpVariant = variantFormat != nil
        self.variantFormat = writesDisk ? variantFormat : nil
        cacheOnly = options.contains(.returnCacheDataDontLoad)
        // Even under `disableMemoryCacheWrites`: a reduction serves other sizes than this one.
        // Whatever the frames asked: only a still's reduction is kept (a JPEG's).
        let sizedByProcessor = request.processors.first is any ReducibleProcessing
        let usesReduction = readsMemory && variantFormat == nil && (request.targetSize != nil || sizedByProcessor)
        reduction = usesReduction ? Reduction.key(for: request, keys: keys) : nil
    }

    /// How the source is decoded for this request.
    var decodingOptions: DecodingOptions {
        var options = DecodingOptions(targetSize: request.targetSize, contentMode: request.contentMode,
                                      colorHandling: request.colorHandling, frames: request.frames, gravity: request.gravity)
        options.appliesOrientation = request.appliesOrientation
        options.keepsHighBitDepth = request.keepsHighBitDepth
        return options
    }

    /// Where the image may be on disk, in the order to look. The original is read even under
    /// a processed-only policy: an earlier policy may have written it.
    var diskCandidates: [(key: CacheKey, isProcessed: Bool)] {
        looksUpVariant ? [(keys.image, true), (keys.data, false)] : [(keys.data, false)]
    }
}
