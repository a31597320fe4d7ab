import Foundation

/// A decode of a source kept smaller than the source but larger than the sizes asked of it
/// (a JPEG's DCT-scaled decode), so that later sizes of the same source are resampled from
/// it instead of decoding the source again: responsive images ask for many widths of one
/// photo.
enum Reduction {
    /// One key per source, colour handling and orientation, in the memory cache beside the
    /// processed images.
    static func key(for request: ImageRequest, keys: ImagePipeline.CacheKeys) -> CacheKey {
        var variant = request.colorHandling == .preserve ? "reduced;color=preserve" : "reduced"
        if !request.appliesOrientation { variant += ";orientation=stored" }
        if request.keepsHighBitDepth { variant += ";depth=high" }
        return CacheKey(source: keys.data.source, variant: variant)
    }

    /// Whether `reduction` is at least as large as `options` asks, so resampling it loses
    /// nothing a decode of the source would have kept.
    static func covers(_ reduction: Image, for options: DecodingOptions) -> Bool {
        guard let target = options.targetSize, !reduction.size.isEmpty else { return false }
        return reduction.size.scale(toFit: target, mode: options.contentMode) <= 1
    }

    /// Whether `reduction`, of a source of `sourceSize`, is as large as `processor` needs.
    static func covers(_ reduction: Image, of sourceSize: PixelSize, for processor: any ReducibleProcessing) -> Bool {
        let needed = processor.sufficientSize(forSource: sourceSize)
        return reduction.width >= needed.width && reduction.height >= needed.height
    }

    /// The first of `processors` when it can work from a reduction, for `options` without a
    /// target size (it is used only when the reduction is a still).
    static func reducibleProcessor(_ processors: [any ImageProcessing], options: DecodingOptions) -> (any ReducibleProcessing)? {
        guard options.targetSize == nil else { return nil }
        return processors.first as? any ReducibleProcessing
    }
}

/// What is known of the source bytes each kept reduction was decoded from, so that an image
/// made from a reduction reports its source as one decoded from the bytes does (a server's
/// validators come from it), and the source's full size when its header said it (a
/// ``ReducibleProcessing`` works from it). Bounded: past `limit` keys the oldest recorded goes.
struct ReductionSources {
    static let limit = 1_024
    private var entries: [CacheKey: (metadata: CachedDataMetadata, size: PixelSize?)] = [:]
    private var order: [CacheKey] = []

    mutating func record(_ metadata: CachedDataMetadata, size: PixelSize?, for key: CacheKey) {
        if entries.updateValue((metadata, size), forKey: key) == nil { order.append(key) }
        if order.count > Self.limit { entries[order.removeFirst()] = nil }
    }

    func metadata(for key: CacheKey) -> CachedDataMetadata? { entries[key]?.metadata }

    func sourceSize(for key: CacheKey) -> PixelSize? { entries[key]?.size }
}
