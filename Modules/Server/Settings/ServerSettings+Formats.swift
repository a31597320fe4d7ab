import Foundation
import Osprey

extension ServerSettings {
    /// Which formats answers are in, at what quality, and how they are encoded.
    static let formats: [ServerSetting] = [
        ServerSetting("auto-format", .list("FORMAT"),
                      "A format answered to clients that accept it when the URL names none, as webp, avif or jxl; repeat for more.",
                      default: { $0.service.autoFormats.isEmpty ? "none" : nil }) {
            (input) throws(ServerSettingError) in input.service.autoFormats = try input.formats()
        },
        imgproxySwitch(.webp, into: \.autoFormats, ["IMGPROXY_AUTO_WEBP", "IMGPROXY_ENABLE_WEBP_DETECTION"]),
        imgproxySwitch(.avif, into: \.autoFormats, ["IMGPROXY_AUTO_AVIF", "IMGPROXY_ENABLE_AVIF_DETECTION"]),
        imgproxySwitch(.jxl, into: \.autoFormats, ["IMGPROXY_AUTO_JXL"]),
        ServerSetting("enforce-format", .list("FORMAT"), "A format answered to clients that accept it even over the URL's; repeat for more.") {
            (input) throws(ServerSettingError) in input.service.enforcedFormats = try input.formats()
        },
        imgproxySwitch(.webp, into: \.enforcedFormats, ["IMGPROXY_ENFORCE_WEBP"]),
        imgproxySwitch(.avif, into: \.enforcedFormats, ["IMGPROXY_ENFORCE_AVIF"]),
        imgproxySwitch(.jxl, into: \.enforcedFormats, ["IMGPROXY_ENFORCE_JXL"]),
        ServerSetting("preferred-format", imgproxy: ["IMGPROXY_PREFERRED_FORMATS"], .list("FORMAT"),
                      "A format for answers when the URL names none and the client takes no offered one, most preferred first; repeat.",
                      default: { $0.service.preferredFormats.map(\.rawValue).joined(separator: ", ") }) {
            (input) throws(ServerSettingError) in
            input.service.preferredFormats = try input.formats()
            guard !input.service.preferredFormats.isEmpty else { throw input.failure("at least one format") }
        },
        ServerSetting("offer-only-format", .list("FORMAT"),
                      "A format a URL may name only where --auto-format or --enforce-format offers it, as avif or jxl, which cost far more to encode; repeat.") {
            (input) throws(ServerSettingError) in input.service.formatsNamedOnlyWhenOffered = Set(try input.formats())
        },
        ServerSetting("skip-processing-format", imgproxy: ["IMGPROXY_SKIP_PROCESSING_FORMATS"], .list("FORMAT"),
                      "A source format answered as it is, unprocessed; repeat for more.") {
            (input) throws(ServerSettingError) in input.service.skipProcessingFormats = Set(try input.formats())
        },
        ServerSetting("quality", imgproxy: ["IMGPROXY_QUALITY"], .value("1…100"), "The quality of lossy answers when the URL names none.",
                      default: { "\($0.service.defaultQuality)" }) {
            (input) throws(ServerSettingError) in input.service.defaultQuality = try input.int(1...100)
        },
        ServerSetting("format-quality", imgproxy: ["IMGPROXY_FORMAT_QUALITY"], .list("FORMAT=QUALITY"), "A format's quality over --quality; repeat.",
                      default: { $0.service.formatQualities.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }
                          .joined(separator: ", ") }) {
            (input) throws(ServerSettingError) in
            for pair in input.list() {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let format = ImageFormat(fileExtension: parts[0].lowercased()), let quality = Int(parts[1]),
                      (1...100).contains(quality) else {
                    throw input.failure("\(pair): give FORMAT=QUALITY pairs, qualities 1…100")
                }
                input.service.formatQualities[format] = quality
            }
        },
        ServerSetting("jpeg-progressive", imgproxy: ["IMGPROXY_JPEG_PROGRESSIVE"], .toggle, "JPEG answers are progressive.") {
            (input) throws(ServerSettingError) in input.service.osprey.encoders.append(JPEGEncoder(progressive: try input.bool()))
        },
        ServerSetting("avif-speed", imgproxy: ["IMGPROXY_AVIF_SPEED"], .value("0…9"), "libavif's speed: higher is faster and larger.") {
            (input) throws(ServerSettingError) in
            var encoder = avifEncoder(input.service)
            encoder.speed = try input.int(0...9)
            input.service.osprey.encoders.append(encoder)
        },
        ServerSetting("avif-animation", osprey: "AVIF_ANIMATION", imgproxy: [], .toggle,
                      "An animated source asked as AVIF is answered as an AVIF sequence, every frame; off: its first frame, a still.",
                      default: { avifEncoder($0.service).animates ? "on" : "off" }) {
            (input) throws(ServerSettingError) in
            var encoder = avifEncoder(input.service)
            encoder.animates = try input.bool()
            input.service.osprey.encoders.append(encoder)
        },
        ServerSetting("jxl-effort", imgproxy: ["IMGPROXY_JXL_EFFORT"], .value("1…9"), "libjxl's effort: higher is slower and smaller.") {
            (input) throws(ServerSettingError) in input.service.osprey.encoders.append(JXLEncoder(effort: try input.int(1...9)))
        },
        ServerSetting("always-rasterize-svg", imgproxy: ["IMGPROXY_ALWAYS_RASTERIZE_SVG"], .toggle,
                      "An SVG source asked in no format is rasterised; else it is answered as SVG, sanitised.") {
            (input) throws(ServerSettingError) in input.service.alwaysRasterizesSVG = try input.bool()
        },
        ServerSetting("strip-color-profile", imgproxy: ["IMGPROXY_STRIP_COLOR_PROFILE"], .toggle,
                      "Answers are converted to sRGB unless the URL says scp:0; off, they keep the source's profile.",
                      default: { $0.service.keepsColorProfiles ? "off" : "on" }) {
            (input) throws(ServerSettingError) in input.service.keepsColorProfiles = !(try input.bool())
        },
        ServerSetting("strip-metadata", imgproxy: ["IMGPROXY_STRIP_METADATA"], .toggle,
                      "Answers carry none of the source's EXIF, XMP and IPTC unless the URL says sm:0 (but see --keep-copyright); off, they carry it all.",
                      default: { $0.service.stripsMetadata ? "on" : "off" }) {
            (input) throws(ServerSettingError) in input.service.stripsMetadata = try input.bool()
        },
        ServerSetting("keep-copyright", imgproxy: ["IMGPROXY_KEEP_COPYRIGHT"], .toggle,
                      "Stripped answers keep the source's authorship and rights (EXIF Artist and Copyright, IPTC By-line, Credit and Copyright Notice, XMP dc:creator, dc:rights, xmpRights) unless the URL says kcr:0.",
                      default: { $0.service.keepsCopyright ? "on" : "off" }) {
            (input) throws(ServerSettingError) in input.service.keepsCopyright = try input.bool()
        },
        ServerSetting("preserve-hdr", imgproxy: ["IMGPROXY_PRESERVE_HDR"], .toggle,
                      "High-bit-depth sources (16-bit PNG and TIFF; AVIF, HEIC, JPEG XL of 10 bits or more, HDR ones with their code points) stay so in PNG, TIFF, JPEG XL, AVIF and HEIC answers unless the URL says ph:0; off, answers are 8-bit unless it says ph:1.",
                      default: { $0.service.preservesHighBitDepth ? "on" : "off" }) {
            (input) throws(ServerSettingError) in input.service.preservesHighBitDepth = try input.bool()
        },
        ServerSetting("auto-rotate", imgproxy: ["IMGPROXY_AUTO_ROTATE"], .toggle, "An EXIF orientation turns sources upright unless the URL says ar:0.",
                      default: { $0.service.autoRotates ? "on" : "off" }) {
            (input) throws(ServerSettingError) in input.service.autoRotates = try input.bool()
        },
    ]

    /// The AVIF encoder settings made so far, so speed and animation combine.
    static func avifEncoder(_ service: ImageService.Configuration) -> AVIFEncoder {
        service.osprey.encoders.lazy.compactMap { $0 as? AVIFEncoder }.last ?? AVIFEncoder()
    }

    /// One of imgproxy's per-format switches (`IMGPROXY_AUTO_WEBP`), adding its format to a
    /// list or taking it out; Osprey's flag is the list itself.
    static func imgproxySwitch(_ format: ImageFormat, into list: any WritableKeyPath<ImageService.Configuration, [ImageFormat]> & Sendable,
                               _ names: [String]) -> ServerSetting {
        ServerSetting(nil, imgproxy: names, .toggle, "Offers \(format.rawValue) as the list it names.") {
            (input) throws(ServerSettingError) in
            let on = try input.bool()
            input.service[keyPath: list].removeAll { $0 == format }
            if on { input.service[keyPath: list].append(format) }
        }
    }
}
