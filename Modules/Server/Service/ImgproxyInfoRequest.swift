import Foundation
import HTTPTypes
import OspreyDomain

/// What a client asks of `/info/%signature/%info_options/%source` (imgproxy Pro's image info,
/// `getting_info.mdx`): the signature checked before anything else is read, as for images;
/// then the info options, then the source, read as an image URL's.
package struct ImgproxyInfoRequest: Sendable {
    /// What to answer.
    package struct Options: Sendable {
        /// `size`/`s`, `format`/`f`, `dimensions`/`d` (each on by default, as imgproxy's).
        package var size = true, format = true, dimensions = true
        /// `alpha`/`a`, `pages_number`/`pn`, `average`/`avg` (and whether fully transparent
        /// pixels are left out, the default), `thumb_hash`/`thumbhash`/`th`.
        package var alpha = false, pagesNumber = false, average = false, averageIgnoresTransparent = true, thumbHash = false
        /// `palette`/`p`: at most this many colours (2…256); `nil`: none.
        package var palette: Int?
        /// `dominant_colors`/`dc`.
        package var dominantColors = false
        /// `exif`: the EXIF fields (on by default, as imgproxy's), by canonical names if asked.
        package var exif = true, exifCanonicalNames = false
        /// `iptc`: the IPTC application record's fields (on by default, as imgproxy's).
        package var iptc = true
        /// `blurhash`/`bh`: the components across and down, each 1…9; `nil`: none.
        package var blurHash: (x: Int, y: Int)?
        package var expires: Date?
        package var cacheBuster: String?

        /// Whether an answer needs pixels, not only the header.
        var needsPixels: Bool { average || thumbHash || blurHash != nil || palette != nil || dominantColors }
    }

    package let options: Options
    package let source: URL
    /// Sent with the source's request: the client's cookies the server passes through.
    package let sourceHeaders: [String: String]

    package init(path: String, headers: HTTPFields, authority: String? = nil, service: ImageService) throws(ServerError) {
        let configuration = service.configuration
        try ImgproxyRequest.checkSecret(headers, configuration: configuration)
        do throws(ImgproxyError) {
            let signed = try ImgproxyRequest.checkedSignature(path, configuration: configuration)
            let separator = configuration.urlRules.argumentsSeparator
            var segments = signed.signedPart.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)[...]
            var options = Options()
            while let segment = segments.first, segment != "plain", segment.contains(separator) {
                try options.apply(segment.components(separatedBy: separator))
                segments = segments.dropFirst()
            }
            self.options = options
            // The rest is an image URL's source: read by the same parser, over no options.
            let parsed = try ImgproxyPath(ImgproxyPath.Signed("/_/" + segments.joined(separator: "/")), baseURL: configuration.baseURL,
                                          rules: configuration.urlRules)
            source = parsed.source
            if let expires = options.expires, expires <= service.pipeline.configuration.clock.now { throw ImgproxyError.expired }
        } catch {
            throw ServerError(error)
        }
        let cookie = configuration.cookiePassthrough.cookie(for: source, headers: headers, authority: authority)
        sourceHeaders = cookie.map { ["Cookie": $0] } ?? [:]
    }
}

extension ImgproxyInfoRequest.Options {
    /// One info option, `name:arguments…`.
    mutating func apply(_ parts: [String]) throws(ImgproxyError) {
        let name = parts[0], arguments = Array(parts.dropFirst())
        func flag(_ index: Int = 0, default value: Bool) throws(ImgproxyError) -> Bool {
            index < arguments.count && !arguments[index].isEmpty ? try ImgproxyOptions.bool(arguments[index]) : value
        }
        switch name {
        case "size", "s": size = try flag(default: true)
        case "format", "f": format = try flag(default: true)
        case "dimensions", "d": dimensions = try flag(default: true)
        case "alpha", "a": alpha = try flag(default: true)
        case "pages_number", "pn": pagesNumber = try flag(default: true)
        case "average", "avg":
            average = try flag(default: true)
            averageIgnoresTransparent = try flag(1, default: true)
        case "thumb_hash", "thumbhash", "th": thumbHash = try flag(default: true)
        case "palette", "p":
            guard arguments.count == 1 else { throw .malformed("palette takes a number of colours") }
            let colors = try ClientNumber.integer(arguments[0], in: 0...256, name)
            guard colors == 0 || colors >= 2 else { throw .malformed("palette takes 0, or 2…256 colours") }
            palette = colors == 0 ? nil : colors
        case "dominant_colors", "dc":
            dominantColors = try flag(default: true)
            if try flag(1, default: false) { throw .unsupported("dominant_colors' build_missed is not answered by Osprey yet") }
        case "iptc": iptc = try flag(default: true)
        case "exif":
            exif = try flag(default: true)
            exifCanonicalNames = try flag(1, default: false)
        case "blurhash", "bh":
            guard arguments.count == 2 else { throw .malformed("blurhash takes x and y components") }
            let x = try ClientNumber.integer(arguments[0], in: 0...9, name), y = try ClientNumber.integer(arguments[1], in: 0...9, name)
            blurHash = x > 0 && y > 0 ? (x, y) : nil
        case "expires", "exp":
            guard arguments.count == 1 else { throw .malformed("expires takes a Unix time") }
            expires = try ClientNumber.unixTime(arguments[0], name)
        case "cachebuster", "cb": cacheBuster = arguments.first.flatMap { $0.isEmpty ? nil : $0 }
        case "xmp", "video_meta", "vm", "colorspace", "cs", "bands", "b", "sample_format", "sf", "crop", "c", "detect_objects", "do", "classify", "cl", "perceptual_hash", "phash", "ph",
             "calc_hashsums", "chs", "objects_position", "obj_pos", "op", "max_src_resolution", "msr", "max_src_file_size", "msfs",
             "preset", "pr":
            throw .unsupported("the info option \(name) is not answered by Osprey yet")
        default:
            throw .malformed("unknown info option \(name)")
        }
    }
}
