import Foundation
import OspreyDomain

extension ImageService {
    /// Who may ask for what, and how answers are made.
    public struct Configuration: Sendable {
        /// The pairs signatures are checked against; with none, only unsigned URLs are served.
        public var signingKeys: SigningKeys
        /// Accept `insecure` or `_` in place of a signature (imgproxy's default without keys).
        public var allowsUnsigned: Bool
        /// Which sources may be fetched. Give the pipeline's loader the same policy
        /// (``SourcePolicy/addressPolicy`` and ``SourcePolicy/refusal(for:)``), so that
        /// connections and redirects are checked too.
        public var sources: SourcePolicy
        /// Answer AVIF to clients that accept it (it costs more to encode).
        public var offersAVIF: Bool
        /// Answer JPEG XL to clients that accept it (`image/jxl`), before AVIF and WebP.
        public var offersJXL: Bool
        /// Error answers carry their detail (what was fetched, why it failed) instead of the
        /// class's fixed text; for development only (imgproxy's `IMGPROXY_DEVELOPMENT_ERRORS_MODE`).
        public var developmentErrors: Bool
        /// How long a request may take in all; past it, its work is cancelled and it is
        /// answered `504` (imgproxy's `IMGPROXY_TIMEOUT`). `nil`: no deadline.
        public var timeout: Duration?
        /// `Cache-Control: public, max-age=` of answers, in seconds.
        public var maxAge: Int
        /// The quality of lossy answers when the URL names none, 1…100.
        public var defaultQuality: Int
        /// Named sets of options URLs apply with `pr:NAME`; `default` applies to every URL.
        public var presets: ImgproxyPresets
        /// URLs name presets only (`/{signature}/{preset:preset…}/{source}`), as imgproxy's
        /// `IMGPROXY_ONLY_PRESETS`.
        public var onlyPresets: Bool
        /// The bytes of encoded answers kept in memory, so a repeated URL is sent as it was.
        public var answerMemoryLimit: Int
        /// Keep encoded answers in the pipeline's disk cache too, beside the originals, so
        /// that they and their validators outlive a restart.
        public var keepsAnswersOnDisk: Bool

        /// The folder `local:///path` sources are read from (`IMGPROXY_LOCAL_FILESYSTEM_ROOT`);
        /// `nil` refuses them. Paths that lead outside it, symbolic links included, are refused.
        public var localRoot: URL?
        /// Serve `s3://bucket/key` sources, which the pipeline's loader fetches from its store
        /// (`OspreyConfiguration.s3Store`); off, they are refused.
        public var servesS3: Bool
        /// The watermark `wm` lays over answers (`IMGPROXY_WATERMARK_PATH`); `nil` ignores `wm`.
        public var watermark: Image?
        /// A local image answered, processed as the URL asks, when the source fails
        /// (`IMGPROXY_FALLBACK_IMAGE_PATH`): with status 200 and `Fallback-Image: 1`, and
        /// not kept, so the real image is answered once its source is back.
        public var fallbackImage: String?
        /// Requests must carry `Authorization: Bearer {secret}` (`IMGPROXY_SECRET`).
        public var secret: String?
        /// `Access-Control-Allow-Origin` of every image answer (`IMGPROXY_ALLOW_ORIGIN`).
        public var corsOrigin: String?
        /// Answers' `Cache-Control` follows the source's freshness where it gave one
        /// (`IMGPROXY_CACHE_CONTROL_PASSTHROUGH`), instead of ``maxAge``.
        public var passesCacheControl: Bool
        /// Formats answered whenever the client accepts them, even over the URL's (`IMGPROXY_ENFORCE_WEBP`, `…_AVIF`).
        public var enforcedFormats: [ImageFormat]
        /// The formats answered, in order of preference, when the URL names none and the
        /// client accepts none of the offered ones: the source's own when it is listed, else the
        /// first listed that can carry the image (`IMGPROXY_PREFERRED_FORMATS`). Empty: PNG for
        /// images with alpha, JPEG for the rest.
        public var preferredFormats: [ImageFormat]

        /// A configuration; every value has imgproxy's default.
        public init(signingKeys: SigningKeys = .none, allowsUnsigned: Bool = false, sources: SourcePolicy = SourcePolicy(),
                    offersAVIF: Bool = false, maxAge: Int = 31_536_000, defaultQuality: Int = 80,
                    answerMemoryLimit: Int = 16 << 20, keepsAnswersOnDisk: Bool = true,
                    presets: ImgproxyPresets = .none, onlyPresets: Bool = false) {
            self.signingKeys = signingKeys
            self.allowsUnsigned = allowsUnsigned
            self.sources = sources
            self.offersAVIF = offersAVIF
            offersJXL = false
            developmentErrors = false
            timeout = nil
            self.maxAge = maxAge
            self.defaultQuality = defaultQuality
            self.answerMemoryLimit = answerMemoryLimit
            self.keepsAnswersOnDisk = keepsAnswersOnDisk
            self.presets = presets
            self.onlyPresets = onlyPresets
            localRoot = nil
            servesS3 = false
            watermark = nil
            fallbackImage = nil
            secret = nil
            corsOrigin = nil
            passesCacheControl = false
            enforcedFormats = []
            preferredFormats = []
        }
    }
}
