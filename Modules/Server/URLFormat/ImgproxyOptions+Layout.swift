import Foundation
import OspreyDomain
import OspreyProcessing

extension ImgproxyOptions {
    /// The options of sizing, cropping, the watermark and skipping; false for a name none of
    /// them has.
    mutating func applyLayout(_ name: String, _ args: [String]) throws(ImgproxyError) -> Bool {
        switch name {
        case "mw", "min-width", "min_width":
            minWidth = try Self.dimension(try Self.single(args, name), name)
        case "mh", "min-height", "min_height":
            minHeight = try Self.dimension(try Self.single(args, name), name)
        case "z", "zoom":
            let factors = args.map { Double($0) }
            guard (1...2).contains(factors.count), factors.allSatisfy({ ($0 ?? 0) > 0 && $0! <= 16 }) else {
                throw .malformed("zoom takes one or two factors above 0")
            }
            zoom = Zoom(x: factors[0]!, y: factors.last!!)
        case "ex", "extend":
            extend = try Self.extending(args, name)
        case "exar", "extend_aspect_ratio", "extend_ar":
            extendAspectRatio = try Self.extending(args, name)
        case "c", "crop":
            guard (1...5).contains(args.count) else { throw .malformed("crop takes a width, a height and a gravity") }
            let sides = args.prefix(2).map { $0.isEmpty ? 0 : Double($0) }
            guard sides.allSatisfy({ $0.map { $0 >= 0 && $0 <= 16384 } == true }) else { throw .malformed("crop: sides are 0…16384") }
            let gravity = args.count > 2 ? try ImgproxyGravity(Array(args.dropFirst(2))) : gravity
            let width = sides[0]!, height = sides.count > 1 ? sides[1]! : 0
            crop = width == 0 && height == 0 ? nil : Crop(width: width, height: height, gravity: gravity)
        case "t", "trim":
            trim = try Self.trim(args)
        case "wm", "watermark":
            watermark = try Self.watermark(args)
        case "skp", "skip_processing":
            // A format of imgproxy's that Osprey does not read is never a source's here: passed over.
            var formats: Set<ImageFormat> = []
            for text in args where !Self.imgproxyFormats.contains(text.lowercased()) || ImageFormat(fileExtension: text) != nil {
                formats.insert(try Self.format(text))
            }
            skipProcessing = formats
        case "raw":
            raw = try Self.bool(try Self.single(args, name))
        case "da", "disable_animation":
            disablesAnimation = try Self.bool(try Self.single(args, name))
        case "eth", "enforce_thumbnail":
            // Accepted; the answer is made from the full image, as when there is no thumbnail.
            _ = try Self.bool(try Self.single(args, name))
        default:
            return false
        }
        return true
    }

    /// The options only `ImgproxyGeometry` carries out (the pipeline's own sizing says the rest).
    var needsGeometry: Bool {
        trim != nil || crop != nil || minWidth > 0 || minHeight > 0 || zoom != Zoom() || enlarge || extend != nil
            || extendAspectRatio != nil || gravity.cropGravity == nil || [.force, .fillDown].contains(resizingType)
            || (resizingType == .auto && width > 0 && height > 0)
    }

    /// `ex:1[:gravity…]`; `nil` when off.
    private static func extending(_ args: [String], _ option: String) throws(ImgproxyError) -> ImgproxyGravity? {
        guard let first = args.first else { throw .malformed("\(option) takes whether and a gravity") }
        guard try bool(first) else { return nil }
        let gravity = args.count > 1 ? try ImgproxyGravity(Array(args.dropFirst())) : ImgproxyGravity()
        guard gravity.anchor != .sm else { throw .malformed("\(option): smart gravity cannot place an image") }
        return gravity
    }

    /// `t:threshold[:colour[:equal_hor[:equal_ver]]]`; a threshold below 0 is no trim.
    private static func trim(_ args: [String]) throws(ImgproxyError) -> ImageProcessors.Trim? {
        guard (1...4).contains(args.count), let threshold = Double(args[0]) else { throw .malformed("trim takes a threshold") }
        guard threshold >= 0 else { return nil }
        guard threshold <= 255 else { throw .malformed("trim: the threshold is 0…255") }
        var trim = ImageProcessors.Trim(threshold: Int(threshold.rounded()))
        if args.count > 1, !args[1].isEmpty {
            guard args[1].count == 6, let color = RGBAColor(hex: args[1]) else { throw .malformed("trim: a hex colour is 6 digits") }
            trim.color = color
        }
        if args.count > 2, !args[2].isEmpty { trim.equalHorizontal = try bool(args[2]) }
        if args.count > 3, !args[3].isEmpty { trim.equalVertical = try bool(args[3]) }
        return trim
    }

    /// `wm:opacity[:position[:x[:y[:scale]]]]`; an opacity of 0 is none.
    private static func watermark(_ args: [String]) throws(ImgproxyError) -> Watermark? {
        guard (1...5).contains(args.count), let opacity = Double(args[0]), (0...1).contains(opacity) else {
            throw .malformed("watermark takes an opacity 0…1")
        }
        guard opacity > 0 else { return nil }
        let numbers = args.dropFirst(2).map { $0.isEmpty ? 0 : Double($0) }
        guard numbers.allSatisfy({ $0?.isFinite == true }) else { throw .malformed("watermark: offsets and scale are numbers") }
        let position = args.count > 1 && !args[1].isEmpty ? args[1] : "ce"
        let gravity: ImgproxyGravity? = position == "re" ? nil : try ImgproxyGravity([position])
        guard gravity?.anchor != .sm, gravity?.anchor != .fp else { throw .malformed("watermark: position \(position)") }
        let scale = numbers.count > 2 ? numbers[2]! : 0
        guard (0...1).contains(scale) else { throw .malformed("watermark: the scale is 0…1") }
        return Watermark(opacity: opacity, position: gravity, offsetX: numbers.first.flatMap { $0 } ?? 0,
                         offsetY: numbers.count > 1 ? numbers[1]! : 0, scale: scale)
    }
}
