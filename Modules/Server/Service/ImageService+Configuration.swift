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
        /// Signatures accepted as they are, whatever the path (URLs made
        /// before a key was set, say).
        public var trustedSignatures: Set<String>
        /// Prepended to every source URL that does not start with it.
        public var baseURL: String?
        /// Which client cookies go with sources' requests (imgproxy's cookie passthrough);
        /// none by default. Answers made with cookies are `Cache-Control: private`.
        public var cookiePassthrough = CookiePassthrough()
        /// Requests must carry `Authorization: Bearer {secret}`.
        public var secret: String?
        /// Named sets of options URLs apply with `pr:NAME`; `default` applies to every URL.
        public var presets: ImgproxyPresets
        /// URLs name presets only (`/{signature}/{preset:preset…}/{source}`), as imgproxy allows.
        public var onlyPresets: Bool
        /// Named sets of `/info` options, applied with `pr:NAME`; `default` applies to every
        /// `/info` URL (imgproxy Pro's info presets).
        public var infoPresets = ImgproxyPresets.none
        /// `/info` URLs name presets only; `nil` follows ``onlyPresets``.
        public var infoOnlyPresets: Bool?
        /// The info options `/info` URLs may use, as written; empty: all.
        public var allowedInfoOptions: Set<String> = []

        // MARK: Sources

        /// Which sources may be fetched; the loader checks connections and redirects by it too.
        public var sources: SourcePolicy
        /// The folder `local:///path` sources are read from;
        /// `nil` refuses them. Paths that lead outside it, symbolic links included, are refused.
        public var localRoot: URL?
        /// The S3-compatible store `s3://bucket/key` sources are fetched from, signed; `nil`
        /// refuses them.
        public var s3Store: S3DataLoader.Store?
        /// Google Cloud Storage, for `gs://bucket/object` sources; `nil`: they are refused.
        public var gcsStore: GCSDataLoader.Store?
        /// imgproxy v4's `IMGPROXY_GCS_ALLOWED_BUCKETS` and `_DENIED_BUCKETS`.
        public var gcsAllowedBuckets: Set<String> = []
        public var gcsDeniedBuckets: Set<String> = []
        /// Azure Blob Storage, for `abs://container/blob` sources; `nil`: they are refused.
        public var absStore: ABSDataLoader.Store?
        /// imgproxy v4's `IMGPROXY_ABS_ALLOWED_BUCKETS` and `_DENIED_BUCKETS` (containers).
        public var absAllowedBuckets: Set<String> = []
        public var absDeniedBuckets: Set<String> = []
        /// The only buckets `s3://` sources may name; empty: any.
        public var s3AllowedBuckets: Set<String>
        /// Buckets `s3://` sources may never name.
        public var s3DeniedBuckets: Set<String>
        /// `s3://` bucket names that stand for access points (by ARN) or other buckets
        /// (imgproxy's `IMGPROXY_S3_ACCESS_POINTS`); the bucket lists check the name as written.
        public var s3AccessPoints: [String: String] = [:]
        /// An image answered, processed as the URL asks, when the source fails, with
        /// `Fallback-Image: 1`: a local file,
        /// or a URL (a `data:` URL for the data) fetched and kept as sources are.
        public var fallbackImage: ImageSource?
        /// The fallback's status (200 by default; 0: the
        /// failure's own).
        public var fallbackStatus: Int
        /// The fallback's `Cache-Control` max-age, in seconds;
        /// `nil`: ``maxAge``.
        public var fallbackMaxAge: Int?

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
        /// answered `503`, as imgproxy answers (default 10 s). `nil`: no deadline.
        public var timeout: Duration?
        /// How long a source's download may take, retries' waits included (default 5 s).
        public var downloadTimeout: Duration

        // MARK: Answers

        /// Formats answered to clients whose `Accept` takes them when the URL names no format
        /// (none by default): JPEG XL
        /// first, then AVIF, then WebP.
        public var autoFormats: [ImageFormat]
        /// Formats a URL may name only where the server offers them (``autoFormats`` or
        /// ``enforcedFormats``); a URL naming one otherwise is answered as if it named none.
        /// None by default, as imgproxy; AVIF and JPEG XL cost far more to encode than the rest.
        public var formatsNamedOnlyWhenOffered: Set<ImageFormat>
        /// The quality of lossy answers when the URL names none, 1…100.
        public var defaultQuality: Int
        /// Qualities by format over ``defaultQuality`` when the URL names none
        ///: imgproxy's WebP 79, AVIF 63, JPEG XL 77 by default.
        public var formatQualities: [ImageFormat: Int]
        /// Source formats answered as they are, unprocessed.
        public var skipProcessingFormats: Set<ImageFormat>
        /// `Cache-Control: max-age=` of answers, in seconds.
        public var maxAge: Int
        /// Answers carry an `ETag` and answer `If-None-Match` (on by default
        /// here, since a tag costs nothing once the answer is kept).
        public var usesETags: Bool
        /// Answers carry the source's `Last-Modified` and answer `If-Modified-Since`
        /// (on by default here).
        public var usesLastModified: Bool
        /// Answers are taken to be modified at least at this time (imgproxy's
        /// `IMGPROXY_LAST_MODIFIED_BUSTER`): a source's older `Last-Modified` is answered as it,
        /// so clients' copies from before a change of settings are not confirmed.
        public var lastModifiedBuster: Date?
        /// `Content-Disposition: attachment` unless the URL says otherwise.
        public var returnsAttachment: Bool
        /// Answers of http and https sources carry `Link: <source>; rel="canonical"`
        ///.
        public var setsCanonicalHeader: Bool
        /// Answers keep the source's colour profile unless the URL says `scp:1`;
        /// by default they are converted to sRGB.
        public var keepsColorProfiles: Bool
        /// An EXIF orientation turns sources upright unless the URL says `ar:0`
        /// (on by default); off, pixels stay as stored unless it says `ar:1`.
        public var autoRotates: Bool
        /// Answers carry none of the source's EXIF, XMP and IPTC unless the URL says `sm:0`
        /// (on by default, as imgproxy's); off, they carry it all.
        public var stripsMetadata: Bool
        /// When metadata is stripped, its authorship and rights stay unless the URL says
        /// `kcr:0` (on by default, as imgproxy's).
        public var keepsCopyright: Bool
        /// High-bit-depth sources stay deep in an answer whose format carries it (PNG, TIFF, JPEG
        /// XL, AVIF, HEIC) unless the URL says `ph:0` (off by default, as imgproxy's
        /// `IMGPROXY_PRESERVE_HDR`).
        public var preservesHighBitDepth = false
        /// An SVG source asked in no format is rasterised and answered as any image
        ///; by default it is answered as SVG, sanitised.
        public var alwaysRasterizesSVG: Bool
        /// The client's `DPR` and `Width` hints (and their `Sec-CH-` forms) set `dpr` and the width
        /// before the URL's options; answers vary with them.
        public var usesClientHints: Bool
        /// Answers carry `X-Result-Width` and `X-Result-Height`, and the source's
        /// `X-Origin-Width`, `X-Origin-Height` and `X-Origin-Content-Length`
        /// (reading the source's costs a look at its header).
        public var debugHeaders: Bool
        /// URLs may carry imgproxy's security options (`max_src_resolution`, `max_src_file_size`,
        /// `max_animation_frames`, `max_animation_frame_resolution`, `max_result_dimension`).
        /// Off, a URL with one is `403`, as imgproxy answers.
        public var allowsSecurityOptions: Bool
        /// Answers' `Cache-Control` follows the source's freshness where it gave one
        ///, instead of ``maxAge``.
        public var passesCacheControl: Bool
        /// `Access-Control-Allow-Origin` of every answer.
        public var corsOrigin: String?
        /// Formats answered whenever the client accepts them, even over the URL's.
        public var enforcedFormats: [ImageFormat]
        /// The formats answered, in order of preference, when the URL names none and the
        /// client accepts none of the offered ones: the source's own when it is listed, else the
        /// first listed that can carry the image (imgproxy's JPEG,
        /// PNG and GIF by default), else JPEG, or PNG for an image with alpha. A listed format
        /// no encoder writes is passed over.
        public var preferredFormats: [ImageFormat]
        /// The watermark `wm` lays over answers, decoded when the service is built; `nil`
        /// ignores `wm`. An http(s) URL is fetched once by ``fetchingWatermark()``.
        public var watermark: ImageSource?
        /// How URLs are read beyond their format: the arguments' separator, file names after
        /// base64 sources, source replacements, the options allowed.
        public var urlRules = ImgproxyURLRules()
        /// The longest side a result may have (imgproxy's `IMGPROXY_MAX_RESULT_DIMENSION`): a
        /// larger one is scaled down to fit; `nil`: no bound. A URL's `mrd` may only lower it.
        public var maxResultDimension: Int?
        /// Multiplies the opacity each `wm` asks for (imgproxy's `IMGPROXY_WATERMARK_OPACITY`), 0…1.
        public var watermarkOpacity: Double = 1
        /// The User-Agent sent to sources; `nil`: Osprey's own.
        public var sourceUserAgent: String?
        /// Error answers carry their detail (what was fetched, why it failed) instead of the
        /// class's fixed text; for development only.
        public var developmentErrors: Bool
        /// The bytes of encoded answers kept in memory, so a repeated URL is sent as it was
        /// (default 16 MB); they are kept in the disk cache too.
        public var answerMemoryLimit: Int
        /// The memory the server keeps within, in bytes (`--max-memory`): each request's
        /// decode, processing and encode is admitted while its estimate, the work in flight,
        /// the memory caches and the process's own memory fit; otherwise it waits, at most half
        /// the request's ``timeout``, then is answered `503` with `Retry-After`, and one whose
        /// estimate alone is over the budget `422`. By default ``containerMemoryBudget``: none
        /// outside a container with a memory limit.
        public var maxMemory: Int?
    }
}
