import Foundation
import OspreyDomain

extension ImgproxyInfoRequest {
    /// What to answer: imgproxy Pro's info options, each on or off by its default.
    package struct Options: Sendable, ImgproxyPresetOptions {
        /// `size`/`s`, `format`/`f`, `dimensions`/`d` (each on by default, as imgproxy's).
        package var size = true, format = true, dimensions = true
        /// `alpha`/`a`, `pages_number`/`pn`, `average`/`avg` (and whether fully transparent
        /// pixels are left out, the default), `thumb_hash`/`thumbhash`/`th`.
        package var alpha = false, pagesNumber = false, average = false, averageIgnoresTransparent = true, thumbHash = false
        /// `palette`/`p`: at most this many colours (2…256); `nil`: none.
        package var palette: Int?
        /// `dominant_colors`/`dc`, and whether kinds no colour fits are made (`build_missed`).
        package var dominantColors = false, buildsMissedColors = false
        /// `exif`: the EXIF fields (on by default, as imgproxy's), by canonical names if asked.
        package var exif = true, exifCanonicalNames = false
        /// `iptc`, `xmp`: the IPTC application record's fields and the XMP properties (on by
        /// default, as imgproxy's).
        package var iptc = true, xmp = true
        /// `blurhash`/`bh`: the components across and down, each 1…9; `nil`: none.
        package var blurHash: (x: Int, y: Int)?
        /// `crop`/`c`: the window whose relative coordinates are answered; `nil`: none.
        package var crop: ImgproxyOptions.Crop?
        /// `page`/`pg`: the frame of an animation the pixels' facts are of.
        package var page = 0
        /// `max_src_resolution`, `max_src_file_size`: the URL's own source limits.
        package var security = ImgproxySecurityOptions()
        package var expires: Date?
        package var cacheBuster: String?

        package init() {}

        /// Whether an answer needs pixels, not only the header.
        var needsPixels: Bool { average || thumbHash || blurHash != nil || palette != nil || dominantColors || crop?.gravity.anchor == .sm }

        /// What the answer depends on, for the key it is kept under beside the source's.
        var cacheVariant: String {
            let flags = [size, format, dimensions, alpha, pagesNumber, average, averageIgnoresTransparent, thumbHash, dominantColors,
                         buildsMissedColors, exif, exifCanonicalNames, iptc, xmp].map { $0 ? "1" : "0" }.joined()
            var parts = ["info=" + flags, "p=\(palette ?? 0)", "bh=\(blurHash.map { "\($0.x)x\($0.y)" } ?? "0")", "pg=\(page)"]
            if let crop { parts.append("c=\(crop.width)x\(crop.height)@\(crop.gravity.identifier)") }
            if !security.isEmpty { parts.append("msr=\(security.maxSourcePixels ?? 0),msfs=\(security.maxSourceBytes ?? 0)") }
            if let cacheBuster { parts.append("cb=" + cacheBuster) }
            return parts.joined(separator: ";")
        }

        /// One info option, `name:arguments…` (split at the server's separator); a name
        /// outside `rules`' allowed ones is refused, `pr` applies `presets`.
        package mutating func apply(_ segment: Substring, presets: ImgproxyPresets, rules: ImgproxyURLRules) throws(ImgproxyError) {
            let parts = segment.components(separatedBy: rules.argumentsSeparator)
            if !rules.allowedOptions.isEmpty, !rules.allowedOptions.contains(parts[0]) { throw .unsupported("forbidden info option \(parts[0])") }
            if parts[0] == "pr" || parts[0] == "preset" { return try presets.apply(Array(parts.dropFirst()), to: &self) }
            try apply(parts)
        }
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
            buildsMissedColors = try flag(1, default: false)
        case "iptc": iptc = try flag(default: true)
        case "xmp": xmp = try flag(default: true)
        case "exif":
            exif = try flag(default: true)
            exifCanonicalNames = try flag(1, default: false)
        case "blurhash", "bh":
            guard arguments.count == 2 else { throw .malformed("blurhash takes x and y components") }
            let x = try ClientNumber.integer(arguments[0], in: 0...9, name), y = try ClientNumber.integer(arguments[1], in: 0...9, name)
            blurHash = x > 0 && y > 0 ? (x, y) : nil
        case "crop", "c": crop = try ImgproxyOptions.crop(arguments, default: ImgproxyGravity(), name)
        case "page", "pg":
            guard arguments.count == 1 else { throw .malformed("page takes a number") }
            page = try ClientNumber.count(arguments[0], least: 0, name)
        case "max_src_resolution", "msr":
            guard arguments.count == 1 else { throw .malformed("\(name) takes one argument") }
            security.maxSourcePixels = try ClientNumber.megapixels(arguments[0], name)
        case "max_src_file_size", "msfs":
            guard arguments.count == 1 else { throw .malformed("\(name) takes one argument") }
            security.maxSourceBytes = try ClientNumber.bytes(arguments[0], name)
        case "expires", "exp":
            guard arguments.count == 1 else { throw .malformed("expires takes a Unix time") }
            expires = try ClientNumber.unixTime(arguments[0], name)
        case "cachebuster", "cb": cacheBuster = arguments.first.flatMap { $0.isEmpty ? nil : $0 }
        case "video_meta", "vm", "colorspace", "cs", "bands", "b", "sample_format", "sf", "detect_objects", "do", "classify", "cl",
             "perceptual_hash", "phash", "ph", "calc_hashsums", "chs", "objects_position", "obj_pos", "op", "hashsum", "hs":
            throw .unsupported("the info option \(name) is not answered by Osprey yet")
        default:
            throw .malformed("unknown info option \(name)")
        }
    }
}
