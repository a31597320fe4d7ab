import Foundation
import OspreyDomain
import OspreyProcessing

extension ImgproxyOptions {
    /// `s:width:height:enlarge:extend`, as `size` and `resize` after its type give them.
    mutating func applySize(_ args: [String], option: String) throws(ImgproxyError) {
        if args.count > 0, !args[0].isEmpty { width = try ClientNumber.size(args[0], option) }
        if args.count > 1, !args[1].isEmpty { height = try ClientNumber.size(args[1], option) }
        if args.count > 2, !args[2].isEmpty { enlarge = try Self.bool(args[2]) }
        if args.count > 3, !args[3].isEmpty { extend = try Self.bool(args[3]) ? extend ?? ImgproxyGravity() : nil }
        if args.count > 4 { throw .malformed("too many arguments to \(option)") }
    }

    /// The options only `ImgproxyGeometry` carries out (the pipeline's own sizing says the rest).
    var needsGeometry: Bool {
        trim != nil || crop != nil || minWidth > 0 || minHeight > 0 || zoom != Zoom() || enlarge || extend != nil
            || extendAspectRatio != nil || gravity.cropGravity == nil || [.force, .fillDown].contains(resizingType)
            || (resizingType == .auto && width > 0 && height > 0)
    }

    /// `ex:1[:gravity…]`; `nil` when off.
    static func extending(_ args: [String], _ option: String) throws(ImgproxyError) -> ImgproxyGravity? {
        guard let first = args.first else { throw .malformed("\(option) takes whether and a gravity") }
        guard try bool(first) else { return nil }
        let gravity = args.count > 1 ? try ImgproxyGravity(Array(args.dropFirst())) : ImgproxyGravity()
        guard gravity.anchor != .sm else { throw .malformed("\(option): smart gravity cannot place an image") }
        return gravity
    }

    /// `c:width:height[:gravity…]`: sides of 1 or more are pixels, below 1 fractions, 0 (or
    /// none) the whole side; the gravity is `gravity`'s unless given.
    static func crop(_ args: [String], default gravity: ImgproxyGravity, _ option: String) throws(ImgproxyError) -> Crop? {
        guard (1...5).contains(args.count) else { throw .malformed("crop takes a width, a height and a gravity") }
        let side = { (text: String) throws(ImgproxyError) -> Double in
            text.isEmpty ? 0 : try ClientNumber.decimal(text, in: 0...Double(ClientNumber.maxSide), option)
        }
        let width = try side(args[0]), height = args.count > 1 ? try side(args[1]) : 0
        let gravity = args.count > 2 ? try ImgproxyGravity(Array(args.dropFirst(2))) : gravity
        return width == 0 && height == 0 ? nil : Crop(width: width, height: height, gravity: gravity)
    }

    /// `t:threshold[:colour[:equal_hor[:equal_ver]]]`; a threshold below 0 is no trim.
    static func trim(_ args: [String]) throws(ImgproxyError) -> ImageProcessors.Trim? {
        guard (1...4).contains(args.count) else { throw .malformed("trim takes a threshold") }
        // Any negative threshold turns trimming off, as in imgproxy.
        let threshold = try ClientNumber.decimal(args[0], in: -Double.greatestFiniteMagnitude...255, "trim")
        guard threshold >= 0 else { return nil }
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
    static func watermark(_ args: [String]) throws(ImgproxyError) -> Watermark? {
        guard (1...5).contains(args.count) else { throw .malformed("watermark takes an opacity and where it goes") }
        let opacity = try ClientNumber.decimal(args[0], in: 0...1, "watermark", reason: "watermark takes an opacity 0…1")
        guard opacity > 0 else { return nil }
        let position = args.count > 1 && !args[1].isEmpty ? args[1] : "ce"
        let gravity: ImgproxyGravity? = position == "re" ? nil : try ImgproxyGravity([position])
        guard gravity?.anchor != .sm, gravity?.anchor != .fp else { throw .malformed("watermark: position \(position)") }
        let offsetX = args.count > 2 ? try ClientNumber.offset(args[2], "watermark") : 0
        let offsetY = args.count > 3 ? try ClientNumber.offset(args[3], "watermark") : 0
        let scale = args.count > 4 && !args[4].isEmpty ? try ClientNumber.amount(args[4], most: 1, "watermark") : 0
        return Watermark(opacity: opacity, position: gravity, offsetX: offsetX, offsetY: offsetY, scale: scale)
    }
}
