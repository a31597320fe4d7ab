import ArgumentParser
import Foundation
import OspreyPrograms

/// `osprey-server`'s flags, each also read from its `OSPREY_` variable (``ProgramEnvironment``),
/// over what an imgproxy environment (`IMGPROXY_*`, ``ImgproxyEnvironment``) says.
struct ServerOptions: ParsableArguments {
    @Option(help: "The address to listen on.") var host: String?
    @Option(help: "The port (default 8080).") var port: Int?
    @Option(help: "A signing key in hex; repeat with --salt, in pairs, while keys rotate.") var key: [String] = []
    @Option(help: "A signing salt in hex, paired with the --key of the same position.") var salt: [String] = []
    @Option(help: "A URL prefix sources may start with, * matching any run of characters but /; repeat for more (default: any public URL).")
    var allowedSource: [String] = []
    @Option(help: "Bytes of the signature's HMAC that URLs carry, 1…32 (default 32).") var signatureSize: Int?
    @Flag(help: "Accept URLs with `insecure` or `_` in place of a signature (only without --key).") var allowUnsigned = false
    @Option(help: "HOST:PORT to serve /metrics on, apart from the public port (default: no metrics).") var metricsBind: String?
    @Option(help: "Seconds a connection may wait for a whole request head, idle or trickling bytes, before it is closed (default 10).")
    var idleTimeout: Double?
    @Option(help: "Connections served at once; past it, new ones wait in the listen queue (default 1024).") var maxConnections: Int?
    @Option(help: "Seconds a request may take in all; past it, its work is cancelled and it is answered 503 (default 10).")
    var timeout: Double?
    @Option(help: "Seconds a source's download may take (default 5).") var downloadTimeout: Double?
    @Option(help: "Threads decoding, processing and encoding images at once, apart from those answering (default: one per core).")
    var workers: Int?
    @Flag(help: "Fetch sources whose host resolves to a loopback address (this machine).") var allowLoopbackSources = false
    @Flag(help: "Fetch sources whose host resolves to a private address (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7).")
    var allowPrivateSources = false
    @Flag(help: "Fetch sources whose host resolves to a link-local address (169.254/16, fe80::/10).") var allowLinkLocalSources = false
    @OptionGroup var cache: CacheFlags
    @Option(help: "Requests served or waiting at once; past it, 429 with Retry-After (default 64).") var maxQueue: Int?
    @Option(help: "Cache-Control max-age of answers, in seconds (default 31536000).") var maxAge: Int?
    @Option(help: "A format answered to clients that accept it when the URL names none: webp, avif or jxl; repeat for more (default: none).")
    var autoFormat: [String] = []
    @Option(help: "A format a URL may name only where --auto-format or --enforce-format offers it, as avif or jxl, which cost far more to encode; repeat.")
    var offerOnlyFormat: [String] = []
    @Option(help: "The quality of lossy answers when the URL names none, 1…100 (default 80).") var quality: Int?
    @Option(help: "A format's quality over --quality, FORMAT=QUALITY; repeat (default webp=79, avif=63, jxl=77).") var formatQuality: [String] = []
    @Flag(help: "Error answers carry their detail (what was fetched, why it failed); for development only.") var developmentErrors = false
    @Option(help: "The largest source to download, in megabytes (default 50).") var maxSourceSize: Int?
    @Option(help: "The most pixels a source may have, in megapixels (default 50); every frame of a GIF is checked.")
    var maxSourceResolution: Int?
    @Option(help: "The most pixels an answer may have, its frames counted together, in megapixels (default: the source's limit).")
    var maxResultResolution: Int?
    @Option(help: "The memory to keep within, such as 300MB; requests wait for room or get 503, and one larger than it all 422 (default: 90% of the container's limit, if any; 0: none).")
    var maxMemory: ByteSizeArgument?
    @Option(help: "The most frames an animated source may have (default 200).") var maxAnimationFrames: Int?
    @Option(help: "Redirects followed when fetching a source (default 3).") var maxRedirects: Int?
    @Option(help: "A preset, NAME=OPTIONS as in a URL (thumb=rs:fill:64:64/q:70); repeat for more. `default` applies to every URL.")
    var preset: [String] = []
    @Option(help: "A file of presets, one NAME=OPTIONS a line (# starts a comment).") var presetsFile: String?
    @Flag(help: "URLs name presets only: /{signature}/{preset:preset…}/{source}.") var onlyPresets = false
    @Option(help: "The image `wm` lays over answers (as imgproxy's IMGPROXY_WATERMARK_PATH).") var watermark: String?
    @Option(help: "The folder local:///path sources are read from; none: local sources are refused.") var localRoot: String?
    @Option(help: "An S3-compatible endpoint for s3://bucket/key sources (path-style), signed with AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION; it may be on a loopback or private address.")
    var s3Endpoint: String?
    @Option(help: "A bucket s3:// sources may name; repeat for more (default: any).") var s3AllowedBucket: [String] = []
    @Option(help: "A bucket s3:// sources may never name; repeat for more.") var s3DeniedBucket: [String] = []
    @Option(help: "A local image answered, processed as asked, when a source fails.") var fallbackImage: String?
    @Option(help: "Requests must carry Authorization: Bearer SECRET.") var secret: String?
    @Option(help: "Access-Control-Allow-Origin of image answers, e.g. * or https://app.example.com.") var allowOrigin: String?
    @Option(help: "Where the image routes and health checks are mounted, such as /images (default: the root).") var pathPrefix: String?
    @Option(help: "A path answered ok while the server runs, beside /health.") var healthCheckPath: String?
    @Option(help: "Logs as text or json (default text).") var logFormat: String?
    @Flag(help: "Answers' Cache-Control max-age follows the source's freshness where it gave one.") var cacheControlPassthrough = false
    @Option(help: "A format answered to clients that accept it even over the URL's: webp, avif or jxl; repeat for more.")
    var enforceFormat: [String] = []
    @Option(help: "A format for answers when the URL names none and the client takes no offered one, most preferred first; repeat.")
    var preferredFormat: [String] = []
    @Option(help: .hidden) var corsOrigin: String?
    @Flag(help: .hidden) var avif = false
    @Flag(help: .hidden) var jxl = false
    @Option(help: "Serve the demo: a page of this folder's images at /, the folder itself at /origin/ (which becomes an allowed source).")
    var gallery: String?
}
