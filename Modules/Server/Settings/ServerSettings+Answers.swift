import Foundation
import Osprey

extension ServerSettings {
    /// What answers carry: caching headers, validators, CORS, the watermark and error detail.
    static let answers: [ServerSetting] = [
        ServerSetting("max-age", imgproxy: ["IMGPROXY_TTL"], .value("SECONDS"), "Cache-Control max-age of answers; 0: no-cache.",
                      default: { "\($0.service.maxAge)" }) {
            (input) throws(ServerSettingError) in input.service.maxAge = try input.int(0...Int(Int32.max))
        },
        ServerSetting("cache-control-passthrough", imgproxy: ["IMGPROXY_CACHE_CONTROL_PASSTHROUGH"], .toggle,
                      "Answers' Cache-Control max-age follows the source's freshness where it gave one.") {
            (input) throws(ServerSettingError) in input.service.passesCacheControl = try input.bool()
        },
        toggle("use-etag", "IMGPROXY_USE_ETAG", \.usesETags, "Answers carry an ETag and answer If-None-Match."),
        toggle("use-last-modified", "IMGPROXY_USE_LAST_MODIFIED", \.usesLastModified,
               "Answers carry the source's Last-Modified and answer If-Modified-Since."),
        ServerSetting("last-modified-buster", imgproxy: ["IMGPROXY_LAST_MODIFIED_BUSTER"], .value("RFC3339"),
                      "Answers are taken to be modified at least at this time: an older source Last-Modified is answered as it.") {
            (input) throws(ServerSettingError) in
            guard let date = try? Date(input.text, strategy: .iso8601) else { throw input.failure("an RFC 3339 time, such as 2026-11-28T12:00:00Z") }
            input.service.lastModifiedBuster = date
        },
        toggle("return-attachment", "IMGPROXY_RETURN_ATTACHMENT", \.returnsAttachment,
               "Content-Disposition: attachment unless the URL says otherwise."),
        toggle("debug-headers", "IMGPROXY_ENABLE_DEBUG_HEADERS", \.debugHeaders,
               "Answers carry X-Result-Width and -Height, and the source's X-Origin-Width, -Height and -Content-Length."),
        toggle("client-hints", "IMGPROXY_ENABLE_CLIENT_HINTS", \.usesClientHints,
               "The client's DPR and Width hints (and their Sec-CH- forms) set dpr and the width before the URL's options."),
        toggle("development-errors", "IMGPROXY_DEVELOPMENT_ERRORS_MODE", \.developmentErrors,
               "Error answers carry their detail (what was fetched, why it failed); for development only."),
        toggle("canonical-header", "IMGPROXY_SET_CANONICAL_HEADER", \.setsCanonicalHeader,
               "Answers of http and https sources carry Link: <source>; rel=\"canonical\"."),
        ServerSetting("allow-origin", imgproxy: ["IMGPROXY_ALLOW_ORIGIN"], .value("ORIGIN"),
                      "Access-Control-Allow-Origin of image answers, such as * or https://app.example.com.") {
            (input) throws(ServerSettingError) in
            // A CORS origin is one scheme, host and port; a list or a path is the old allow-list.
            if input.source != .imgproxy, input.text != "*",
               input.text.contains(",") || URL(string: input.text).map({ !$0.path.isEmpty || $0.host == nil }) ?? true {
                throw input.failure("\(input.text): this is now the CORS origin, as imgproxy's IMGPROXY_ALLOW_ORIGIN; "
                                    + "the source allow-list is --allowed-source (OSPREY_ALLOWED_SOURCES)")
            }
            input.service.corsOrigin = input.text
        },
        ServerSetting("watermark-data", imgproxy: ["IMGPROXY_WATERMARK_DATA"], .value("BASE64"), "The watermark's bytes, in base64.") {
            (input) throws(ServerSettingError) in input.service.watermark = .url(try input.dataURL())
        },
        ServerSetting("watermark", imgproxy: ["IMGPROXY_WATERMARK_PATH"], .value("FILE"), "The image `wm` lays over answers.") {
            (input) throws(ServerSettingError) in input.service.watermark = .file(path: input.filePath())
        },
        ServerSetting("watermark-url", imgproxy: ["IMGPROXY_WATERMARK_URL"], .value("URL"),
                      "The watermark fetched once at start, as sources are (under the allow-list and address checks).") {
            (input) throws(ServerSettingError) in
            guard let url = URL(string: input.text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw input.failure("\(input.text) is not an http or https URL")
            }
            input.service.watermark = .url(url)
        },
        ServerSetting("watermark-opacity", imgproxy: ["IMGPROXY_WATERMARK_OPACITY"], .value("0…1"),
                      "Multiplies the opacity each URL's `wm` asks for.", default: { "\($0.service.watermarkOpacity)" }) {
            (input) throws(ServerSettingError) in input.service.watermarkOpacity = try input.double(0...1)
        },
        renamed("cors-origin", .value("ORIGIN"), "is now --allow-origin (OSPREY_ALLOW_ORIGIN), as imgproxy names it"),
        renamed("avif", .toggle, "is now --auto-format avif (OSPREY_AUTO_FORMAT)"),
        renamed("jxl", .toggle, "is now --auto-format jxl (OSPREY_AUTO_FORMAT)"),
    ]

    /// An on-or-off setting of the service.
    static func toggle(_ flag: String, _ imgproxy: String, _ path: any WritableKeyPath<ImageService.Configuration, Bool> & Sendable,
                       _ help: String) -> ServerSetting {
        ServerSetting(flag, imgproxy: [imgproxy], .toggle, help, default: { $0.service[keyPath: path] ? "on" : "off" }) {
            (input) throws(ServerSettingError) in input.service[keyPath: path] = try input.bool()
        }
    }

    /// A spelling whose meaning changed: it stops the start, naming the new one, rather than be
    /// read with its new meaning.
    static func renamed(_ flag: String, _ kind: ServerSetting.Kind, _ reason: String) -> ServerSetting {
        ServerSetting(flag, kind, hidden: true, reason) { (input) throws(ServerSettingError) in throw input.failure(reason) }
    }
}
