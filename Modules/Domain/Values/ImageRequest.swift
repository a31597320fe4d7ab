import Foundation

/// What to load: a source, the size it will be shown at, and what to do with it.
///
/// ```swift
/// let request = ImageRequest(
///     url: URL(string: "https://example.com/photo.jpg")!,
///     targetSize: PixelSize(width: 200, height: 200),
///     contentMode: .fill
/// )
/// let response = try await pipeline.image(for: request)
/// ```
public struct ImageRequest: Sendable, CustomStringConvertible {
    /// Where the encoded bytes come from.
    public var source: ImageSource
    /// The size the image will be shown at, in pixels; `nil` decodes at full size.
    ///
    /// Decoders never upscale: the result is at most the original size.
    public var targetSize: PixelSize?
    /// How the image is scaled to ``targetSize``.
    public var contentMode: ContentMode
    /// Processors applied in order after decoding. Their identifiers enter the cache key.
    public var processors: [any ImageProcessing]
    /// Which caches are read and written, and whether the network may be used.
    public var options: Options
    /// How urgently the image is wanted.
    public var priority: Priority
    /// A key that replaces the source's identifier in cache keys, for example to cache
    /// signed URLs under a stable name.
    public var customCacheKey: String?
    /// What goes to the disk cache for this request; `nil` uses the pipeline's policy.
    public var diskStorage: DiskStoragePolicy?
    /// The first frame of an animation (the default: a still costs what it costs today),
    /// or every frame, each at the target size, within the decoder's limits.
    public var frames: FrameSelection = .first
    /// Convert colours to sRGB through the image's profile (the default), or keep them and
    /// carry the profile on the image.
    public var colorHandling: ColorHandling = .convertToSRGB
    /// Which part a `fill` keeps when it crops: the centre (the default), a point, or the
    /// most interesting window.
    public var gravity: CropGravity = .centre
    /// Whether an EXIF orientation turns the pixels upright (the default) or they are kept
    /// as stored, as ``DecodingOptions/appliesOrientation``.
    public var appliesOrientation = true
    /// Whether a high-bit-depth source stays 16-bit, as ``DecodingOptions/keepsHighBitDepth``;
    /// processors then get it narrowed to 8 bits (only the decoder's resize keeps the depth).
    public var keepsHighBitDepth = false
    /// Header fields sent with a URL source's request, such as the `Cookie` a server passes
    /// through from its client. Their digest is in every cache key of the request, and
    /// downloads coalesce only with the same fields, so one set's image is never another's.
    public var sourceHeaders: [String: String] = [:]

    /// Creates a request for any source.
    public init(
        source: ImageSource,
        targetSize: PixelSize? = nil,
        contentMode: ContentMode = .fit,
        processors: [any ImageProcessing] = [],
        options: Options = [],
        priority: Priority = .normal,
        customCacheKey: String? = nil,
        diskStorage: DiskStoragePolicy? = nil
    ) {
        self.source = source
        self.diskStorage = diskStorage
        self.targetSize = targetSize
        self.contentMode = contentMode
        self.processors = processors
        self.options = options
        self.priority = priority
        self.customCacheKey = customCacheKey
    }

    /// Creates a request for a remote URL.
    public init(
        url: URL,
        targetSize: PixelSize? = nil,
        contentMode: ContentMode = .fit,
        processors: [any ImageProcessing] = [],
        options: Options = [],
        priority: Priority = .normal,
        customCacheKey: String? = nil,
        diskStorage: DiskStoragePolicy? = nil
    ) {
        self.init(
            source: .url(url), targetSize: targetSize, contentMode: contentMode, processors: processors,
            options: options, priority: priority, customCacheKey: customCacheKey, diskStorage: diskStorage
        )
    }

    /// The key of the processed image in the memory cache.
    public var imageKey: CacheKey { imageKey(normalizing: URLNormalization()) }

    /// The key of the original bytes in the disk cache.
    public var dataKey: CacheKey { dataKey(normalizing: URLNormalization()) }

    /// The key of the processed image, with the source's URL normalised by `normalization`.
    public func imageKey(normalizing normalization: URLNormalization) -> CacheKey {
        var parts: [String] = []
        if let targetSize { parts.append("size=\(targetSize),\(contentMode.rawValue)") }
        if !processors.isEmpty { parts.append("p=" + processors.map(\.identifier).joined(separator: "|")) }
        if frames == .all { parts.append("frames=all") }
        if colorHandling == .preserve { parts.append("color=preserve") }
        if !appliesOrientation { parts.append("orientation=stored") }
        if keepsHighBitDepth { parts.append("depth=high") }
        if contentMode == .fill, gravity != .centre { parts.append(gravity.identifier) }
        return CacheKey(source: sourceKey(normalization), variant: parts.joined(separator: ";"))
    }

    /// The key of the original bytes, with the source's URL normalised by `normalization`.
    public func dataKey(normalizing normalization: URLNormalization) -> CacheKey {
        CacheKey(source: sourceKey(normalization))
    }

    private func sourceKey(_ normalization: URLNormalization) -> String {
        let key = customCacheKey ?? source.cacheIdentifier(normalizing: normalization)
        guard !sourceHeaders.isEmpty else { return key }
        // 128 bits of two FNV-1a runs: two clients' different fields do not meet by chance.
        let fields = sourceHeaders.map { "\($0.key.lowercased()):\($0.value)" }.sorted()
        let bytes = Array(fields.joined(separator: "\n").utf8)
        return key + "#headers=" + ContentDigest.hex(bytes) + ContentDigest.hex(bytes, continuing: 0x84222325cbf29ce4)
    }

    public var description: String { "ImageRequest(\(imageKey))" }
}
