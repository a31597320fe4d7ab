import Foundation
import Osprey

extension ImageService {
    /// Everything an image service is made of, validated whole when the service is built:
    /// who may ask, which sources, the limits, how answers are made, and the pipeline's parts.
    /// The pipeline's loader, limits and store follow from these settings; nothing is wired
    /// twice.
    public struct Configuration: Sendable {
        // MARK: The pipeline

        /// The caches, the network loader's own settings and the number of workers
        /// (`maxConcurrentDecodes`), as for any pipeline. The service sets the rest from the
        /// settings below: the loader's source policy, its limits and timeouts, the S3 store,
        /// the decoding limits, the result limit and the memory kept for answers.
        public var osprey: OspreyConfiguration

        // MARK: Who may ask

        /// The pairs signatures are checked against; with none, only unsigned URLs are served.
        public var signingKeys: SigningKeys
        /// Accept `insecure` or `_` in place of a signature (imgproxy's default without keys).
        public var allowsUnsigned: Bool
        /// Requests must carry `Authorization: Bearer {secret}` (`IMGPROXY_SECRET`).
        public var secret: String?
        /// Named sets of options URLs apply with `pr:NAME`; `default` applies to every URL.
        public var presets: ImgproxyPresets
        /// URLs name presets only (`/{signature}/{preset:preset…}/{source}`), as imgproxy's
        /// `IMGPROXY_ONLY_PRESETS`.
        public var onlyPresets: Bool

        // MARK: Sources

        /// Which sources may be fetched; the loader checks connections and redirects by it too.
        public var sources: SourcePolicy
        /// The folder `local:///path` sources are read from (`IMGPROXY_LOCAL_FILESYSTEM_ROOT`);
        /// `nil` refuses them. Paths that lead outside it, symbolic links included, are refused.
        public var localRoot: URL?
        /// The S3-compatible store `s3://bucket/key` sources are fetched from, signed; `nil`
        /// refuses them.
        public var s3Store: S3DataLoader.Store?
        /// A local image answered, processed as the URL asks, when the source fails
        /// (`IMGPROXY_FALLBACK_IMAGE_PATH`): with status 200 and `Fallback-Image: 1`.
        public var fallbackImage: String?

        // MARK: Limits

        /// The largest source, downloaded or local, in bytes (default 50 MB).
        public var maxSourceBytes: Int64
        /// The most pixels a source may have, every frame of a GIF checked (default 50 MP).
        public var maxSourcePixels: Int
        /// The most frames an animated source may have (default 200).
        public var maxAnimationFrames: Int
        /// The most pixels an answer may have, its frames counted together; `nil` (the
        /// default): ``maxSourcePixels``.
        public var maxResultPixels: Int?
        /// Redirects followed when fetching a source (default 3).
        public var maxRedirects: Int
        /// How long a request may take in all; past it, its work is cancelled and it is
        /// answered `504` (imgproxy's `IMGPROXY_TIMEOUT`, default 10 s). `nil`: no deadline.
        public var timeout: Duration?
        /// How long a source's download may take, retries' waits included (default 5 s).
        public var downloadTimeout: Duration

        // MARK: Answers

        /// Answer AVIF to clients that accept it (it costs more to encode).
        public var offersAVIF: Bool
        /// Answer JPEG XL to clients that accept it (`image/jxl`), before AVIF and WebP.
        public var offersJXL: Bool
        /// The quality of lossy answers when the URL names none, 1…100.
        public var defaultQuality: Int
        /// `Cache-Control: public, max-age=` of answers, in seconds.
        public var maxAge: Int
        /// Answers' `Cache-Control` follows the source's freshness where it gave one
        /// (`IMGPROXY_CACHE_CONTROL_PASSTHROUGH`), instead of ``maxAge``.
        public var passesCacheControl: Bool
        /// `Access-Control-Allow-Origin` of every answer (`IMGPROXY_ALLOW_ORIGIN`).
        public var corsOrigin: String?
        /// Formats answered whenever the client accepts them, even over the URL's (`IMGPROXY_ENFORCE_WEBP`, `…_AVIF`).
        public var enforcedFormats: [ImageFormat]
        /// The formats answered, in order of preference, when the URL names none and the
        /// client accepts none of the offered ones: the source's own when it is listed, else the
        /// first listed that can carry the image (`IMGPROXY_PREFERRED_FORMATS`). Empty: PNG for
        /// images with alpha, JPEG for the rest.
        public var preferredFormats: [ImageFormat]
        /// The watermark `wm` lays over answers (`IMGPROXY_WATERMARK_PATH`); `nil` ignores `wm`.
        public var watermark: Image?
        /// Error answers carry their detail (what was fetched, why it failed) instead of the
        /// class's fixed text; for development only (imgproxy's `IMGPROXY_DEVELOPMENT_ERRORS_MODE`).
        public var developmentErrors: Bool
        /// The bytes of encoded answers kept in memory, so a repeated URL is sent as it was
        /// (default 16 MB); they are kept in the disk cache too.
        public var answerMemoryLimit: Int

        /// A configuration; every other value has its default.
        public init(signingKeys: SigningKeys = .none, allowsUnsigned: Bool = false, sources: SourcePolicy = SourcePolicy(),
                    osprey: OspreyConfiguration = OspreyConfiguration()) {
            self.osprey = osprey
            self.signingKeys = signingKeys
            self.allowsUnsigned = allowsUnsigned
            secret = nil
            presets = .none
            onlyPresets = false
            self.sources = sources
            localRoot = nil
            s3Store = nil
            fallbackImage = nil
            maxSourceBytes = 50_000_000
            maxSourcePixels = 50_000_000
            maxAnimationFrames = 200
            maxResultPixels = nil
            maxRedirects = 3
            timeout = .seconds(10)
            downloadTimeout = .seconds(5)
            offersAVIF = false
            offersJXL = false
            defaultQuality = 80
            maxAge = 31_536_000
            passesCacheControl = false
            corsOrigin = nil
            enforcedFormats = []
            preferredFormats = []
            watermark = nil
            developmentErrors = false
            answerMemoryLimit = 16 << 20
        }
    }
}
