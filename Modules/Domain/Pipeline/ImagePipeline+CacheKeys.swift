extension ImagePipeline {
    /// The keys a request is cached under in one pipeline. Only the pipeline makes them, so
    /// a lookup, a removal and a load always agree.
    public struct CacheKeys: Hashable, Sendable {
        /// The processed image's key: memory, and a processed variant on disk.
        public let image: CacheKey
        /// The original bytes' key on disk.
        public let data: CacheKey

        /// `true` when the request asks for no processing, so its image is the original's.
        public var isOriginal: Bool { image == data }
    }
}
