extension ImagePipeline {
    /// Why a pipeline could not deliver an image. Errors are never cached.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The bytes could not be fetched.
        case dataLoadingFailed(DataLoadingError)
        /// The bytes are not a decodable image.
        case decodingFailed(ImageDecodingError)
        /// A processor failed.
        case processingFailed(processor: String, ImageProcessingError)
        /// The encoded stage could not write the image.
        case encodingFailed(ImageEncodingError)
        /// The request allowed the caches only, and they did not hold the image.
        case notCached(CacheKey)
        /// The processors would make an image of `size` (each of `frames` frames) with more
        /// pixels in all than ``Configuration/maxResultPixels``: refused before any ran.
        case resultTooLarge(PixelSize, frames: Int, limit: Int)
        /// ``Configuration/memoryBudget`` did not admit the work: its estimate alone is over the
        /// budget, or it waited its longest for room.
        case memoryBudget(MemoryBudgetError)

        public var description: String {
            switch self {
            case .dataLoadingFailed(let error): error.description
            case .decodingFailed(let error): error.description
            case let .processingFailed(processor, error): "processor \(processor) failed: \(error)"
            case .encodingFailed(let error): error.description
            case .notCached(let key): "not cached, and the request allows the caches only: \(key)"
            case .memoryBudget(let error): error.description
            case let .resultTooLarge(size, frames, limit):
                "the result would be \(size)" + (frames > 1 ? " in \(frames) frames" : "") + ", over the limit of \(limit) pixels"
            }
        }
    }
}
