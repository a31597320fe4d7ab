import Foundation
import OspreyDomain

extension ImgproxyOptions {
    /// One processing option of imgproxy's URLs: its names (the full one first) and what its
    /// arguments set. Every number goes through ``ClientNumber``.
    package struct Option: Sendable {
        typealias Applier = @Sendable (inout ImgproxyOptions, _ args: [String], _ name: String) throws(ImgproxyError) -> Void
        package let names: [String]
        let apply: Applier

        init(_ names: String..., apply: @escaping Applier) {
            self.names = names
            self.apply = apply
        }
    }

    /// Every option a URL may carry but presets (`pr`), which the path applies itself.
    package static let table: [Option] = [
        Option("resize", "rs") { options, args, name throws(ImgproxyError) in
            if let type = args.first, !type.isEmpty { options.resizingType = try resizingType(type) }
            try options.applySize(Array(args.dropFirst()), option: name)
        },
        Option("size", "s") { options, args, name throws(ImgproxyError) in try options.applySize(args, option: name) },
        Option("resizing_type", "rt") { options, args, name throws(ImgproxyError) in options.resizingType = try resizingType(try single(args, name)) },
        Option("width", "w") { options, args, name throws(ImgproxyError) in options.width = try ClientNumber.size(try single(args, name), name) },
        Option("height", "h") { options, args, name throws(ImgproxyError) in options.height = try ClientNumber.size(try single(args, name), name) },
        Option("min-width", "min_width", "mw") { options, args, name throws(ImgproxyError) in
            options.minWidth = try ClientNumber.size(try single(args, name), name)
        },
        Option("min-height", "min_height", "mh") { options, args, name throws(ImgproxyError) in
            options.minHeight = try ClientNumber.size(try single(args, name), name)
        },
        Option("zoom", "z") { options, args, name throws(ImgproxyError) in
            guard (1...2).contains(args.count) else { throw .malformed("zoom takes one or two factors") }
            let x = try ClientNumber.scale(args[0], most: 16, name)
            options.zoom = Zoom(x: x, y: args.count == 2 ? try ClientNumber.scale(args[1], most: 16, name) : x)
        },
        Option("dpr") { options, args, name throws(ImgproxyError) in options.dpr = try ClientNumber.scale(try single(args, name), most: 8, name) },
        Option("enlarge", "el") { options, args, name throws(ImgproxyError) in options.enlarge = try bool(try single(args, name)) },
        Option("extend", "ex") { options, args, name throws(ImgproxyError) in options.extend = try extending(args, name) },
        Option("extend_aspect_ratio", "extend_ar", "exar") { options, args, name throws(ImgproxyError) in
            options.extendAspectRatio = try extending(args, name)
        },
        Option("gravity", "g") { options, args, _ throws(ImgproxyError) in options.gravity = try ImgproxyGravity(args) },
        Option("crop", "c") { options, args, name throws(ImgproxyError) in options.crop = try crop(args, default: options.gravity, name) },
        Option("trim", "t") { options, args, _ throws(ImgproxyError) in options.trim = try trim(args) },
        Option("padding", "pd") { options, args, _ throws(ImgproxyError) in options.padding = try padding(args) },
        Option("background", "bg") { options, args, _ throws(ImgproxyError) in options.background = try background(args) },
        Option("blur", "bl") { options, args, name throws(ImgproxyError) in
            let sigma = try ClientNumber.amount(try single(args, name), most: 100, name)
            options.blur = sigma > 0 ? sigma : nil
        },
        Option("sharpen", "sh") { options, args, name throws(ImgproxyError) in
            let sigma = try ClientNumber.amount(try single(args, name), most: 100, name)
            options.sharpen = sigma > 0 ? sigma : nil
        },
        Option("pixelate", "pix") { options, args, name throws(ImgproxyError) in
            let side = try ClientNumber.size(try single(args, name), name)
            options.pixelate = side > 1 ? side : nil
        },
        Option("rotate", "rot") { options, args, name throws(ImgproxyError) in
            let degrees = try ClientNumber.integer(try single(args, name), in: -(1 << 31)...(1 << 31), name)
            guard degrees % 90 == 0 else { throw .malformed("rotate takes a multiple of 90") }
            options.rotation = (degrees % 360 + 360) % 360
        },
        Option("flip", "fl") { options, args, _ throws(ImgproxyError) in
            guard (1...2).contains(args.count) else { throw .malformed("flip takes horizontal and vertical") }
            if !args[0].isEmpty { options.flipsHorizontally = try bool(args[0]) }
            if args.count == 2, !args[1].isEmpty { options.flipsVertically = try bool(args[1]) }
        },
        Option("auto_rotate", "ar") { options, args, name throws(ImgproxyError) in options.autoRotates = try bool(try single(args, name)) },
        Option("quality", "q") { options, args, name throws(ImgproxyError) in
            let quality = try ClientNumber.quality(try single(args, name), name)
            options.quality = quality == 0 ? nil : quality
        },
        Option("format_quality", "fq") { options, args, name throws(ImgproxyError) in
            guard !args.isEmpty, args.count % 2 == 0 else { throw .malformed("format_quality takes format and quality pairs") }
            for pair in stride(from: 0, to: args.count, by: 2) {
                let quality = try ClientNumber.quality(args[pair + 1], name)
                options.formatQuality[try format(args[pair])] = quality == 0 ? nil : quality
            }
        },
        Option("max_bytes", "mb") { options, args, name throws(ImgproxyError) in
            let bytes = try ClientNumber.bytes(try single(args, name), name)
            options.maxBytes = bytes > 0 ? bytes : nil
        },
        Option("format", "f", "ext") { options, args, name throws(ImgproxyError) in options.format = try format(try single(args, name)) },
        Option("strip_metadata", "sm") { options, args, name throws(ImgproxyError) in options.stripsMetadata = try bool(try single(args, name)) },
        Option("keep_copyright", "kcr") { options, args, name throws(ImgproxyError) in options.keepsCopyright = try bool(try single(args, name)) },
        Option("preserve_hdr", "ph") { options, args, name throws(ImgproxyError) in options.preservesHighBitDepth = try bool(try single(args, name)) },
        Option("strip_color_profile", "scp") { options, args, name throws(ImgproxyError) in
            options.keepsColorProfile = try !bool(try single(args, name))
        },
        Option("cachebuster", "cb") { options, args, name throws(ImgproxyError) in
            let value = try single(args, name)
            options.cacheBuster = value.isEmpty ? nil : value
        },
        Option("expires", "exp") { options, args, name throws(ImgproxyError) in options.expires = try ClientNumber.unixTime(try single(args, name), name) },
        Option("filename", "fn") { options, args, _ throws(ImgproxyError) in
            guard (1...2).contains(args.count) else { throw .malformed("filename takes a name and whether it is encoded") }
            let encoded = args.count == 2 ? try bool(args[1]) : false
            guard let decoded = encoded ? ImgproxyPath.base64URLDecoded(args[0]) : args[0].removingPercentEncoding else {
                throw .malformed("the filename cannot be decoded")
            }
            options.filename = decoded.isEmpty ? nil : decoded
        },
        Option("return_attachment", "att") { options, args, name throws(ImgproxyError) in
            options.returnsAttachment = try bool(try single(args, name))
        },
        Option("watermark", "wm") { options, args, _ throws(ImgproxyError) in options.watermark = try watermark(args) },
        Option("skip_processing", "skp") { options, args, _ throws(ImgproxyError) in
            // A format of imgproxy's that Osprey does not read is never a source's here: passed over.
            var formats: Set<ImageFormat> = []
            for text in args where !imgproxyFormats.contains(text.lowercased()) || ImageFormat(fileExtension: text) != nil {
                formats.insert(try format(text))
            }
            options.skipProcessing = formats
        },
        Option("raw") { options, args, name throws(ImgproxyError) in options.raw = try bool(try single(args, name)) },
        Option("disable_animation", "da") { options, args, name throws(ImgproxyError) in
            options.disablesAnimation = try bool(try single(args, name))
        },
        // Accepted; the answer is made from the full image, as when there is no thumbnail.
        Option("enforce_thumbnail", "eth") { _, args, name throws(ImgproxyError) in _ = try bool(try single(args, name)) },
        // imgproxy's security options: the service refuses them unless it allows them.
        Option("max_src_resolution", "msr") { options, args, name throws(ImgproxyError) in
            options.security.maxSourcePixels = try ClientNumber.megapixels(try single(args, name), name)
        },
        Option("max_src_file_size", "msfs") { options, args, name throws(ImgproxyError) in
            options.security.maxSourceBytes = try ClientNumber.bytes(try single(args, name), name)
        },
        Option("max_animation_frames", "maf") { options, args, name throws(ImgproxyError) in
            options.security.maxAnimationFrames = try ClientNumber.count(try single(args, name), least: 1, name)
        },
        Option("max_animation_frame_resolution", "mafr") { options, args, name throws(ImgproxyError) in
            options.security.maxAnimationFramePixels = try ClientNumber.megapixels(try single(args, name), name)
        },
        Option("max_result_dimension", "mrd") { options, args, name throws(ImgproxyError) in
            options.security.maxResultDimension = try ClientNumber.count(try single(args, name), least: 0, name)
        },
    ]

    /// ``table`` by every name and alias.
    static let optionsByName: [String: Option] = Dictionary(table.flatMap { option in option.names.map { ($0, option) } }) { first, _ in first }

    /// Every name and alias a URL's option may have, presets' included.
    package static var optionNames: [String] { optionsByName.keys.sorted() + ["pr", "preset"] }
}
