import Foundation

// Small approximate images for placeholders. A preview is never stored where a decode is
// looked up: a later request for the same size gets real pixels.
extension ImagePipeline {
    /// An image of `request`'s source that fits `size`, good enough for a placeholder (a
    /// BlurHash, an average colour) and far cheaper than a decode where the source allows: the
    /// image or its reduction from memory if there; else the decoder's preview
    /// (``ImageDecoding/decodePreview(_:options:)``: a camera's EXIF thumbnail, a progressive
    /// JPEG's first scans); else a decode as ``image(for:)`` makes and keeps it.
    ///
    /// The request's processors and frames are dropped; its source, cache options and
    /// priority hold.
    public func previewImage(for request: ImageRequest, fitting size: PixelSize) async throws -> Image {
        try Task.checkCancellation()
        let plan = plan(for: Self.previewRequest(request, fitting: size))
        if let image = try await fromMemory(plan) { return image }
        switch request.source {
        case .file(let path):
            return try await preview(.file(path: path), plan, tier: .file, metadata: fileMetadata(path))
        case .url:
            let source = try await data(for: request)
            return try await preview(.data(source.data), plan, tier: source.tier, metadata: source.metadata)
        }
    }

    /// ``previewImage(for:fitting:)`` of bytes already fetched for `request`.
    package func previewImage(for request: ImageRequest, fitting size: PixelSize, from source: CachedData) async throws -> Image {
        let plan = plan(for: Self.previewRequest(request, fitting: size))
        if let image = try await fromMemory(plan) { return image }
        return try await preview(.data(source.data), plan, tier: source.tier, metadata: source.metadata)
    }

    private static func previewRequest(_ request: ImageRequest, fitting size: PixelSize) -> ImageRequest {
        var small = request
        small.targetSize = size
        small.contentMode = .fit
        small.processors = []
        small.frames = .first
        return small
    }

    private func fromMemory(_ plan: LoadPlan) async throws -> Image? {
        if let image = cachedImage(plan) { return image }
        return try await fromReduction(plan)?.image
    }

    /// The decoder's preview of `input`; when it has none (or a broken one), the decode.
    private func preview(_ input: ImageInput, _ plan: LoadPlan, tier: ImageResponse.Tier, metadata: CachedDataMetadata) async throws -> Image {
        let options = plan.decodingOptions, decoder = configuration.decoder
        let working = workingMemory(input, options: options, processors: [])
        let preview = try await withMemory(working, holding: Self.heldBytes(input)) {
            try await decodeLimiter.run { (try? decoder.decodePreview(input, options: options)) ?? nil }
        }
        if let preview { return preview }
        try Task.checkCancellation()
        return try await decodeProcessStore(input, plan, tier: tier, metadata: metadata, writesVariant: false).image
    }
}
