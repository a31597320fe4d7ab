import Foundation
import OspreyDomain
import OspreyCodec
import OspreyProcessing

/// The processing options of an imgproxy URL that Osprey carries out.
package struct ImgproxyOptions: Hashable, Sendable {
    package enum ResizingType: String, Sendable {
        case fit, fill, auto, force
        case fillDown = "fill-down"
    }

    package var resizingType: ResizingType = .fit
    /// 0: follows from the other side (or the source's when both are 0).
    package var width = 0
    package var height = 0
    /// Quality 1…100; `nil` for the server's default.
    package var quality: Int?
    /// The format asked for by `f:` or the URL's extension; `nil` to negotiate by `Accept`.
    package var format: ImageFormat?
    /// Which part a fill keeps.
    package var gravity = ImgproxyGravity()
    /// Gaussian blur sigma; `nil` for none.
    package var blur: Double?
    /// The device pixel ratio: the sizes are multiplied by it (Osprey still never enlarges).
    package var dpr = 1.0
    /// Part of the answer's cache key and ETag, nothing else.
    package var cacheBuster: String?
    /// After this the URL is answered `404`.
    package var expires: Date?
    /// The name in `Content-Disposition`, without extension; `nil` for the source's.
    package var filename: String?
    /// `Content-Disposition: attachment` rather than `inline`; `nil` for the server's choice.
    package var returnsAttachment: Bool?
    /// Clockwise, 0, 90, 180 or 270 degrees.
    package var rotation = 0
    /// Mirrored left to right, after the turn.
    package var flipsHorizontally = false
    /// Mirrored top to bottom, after the turn.
    package var flipsVertically = false
    /// Whether an EXIF orientation turns the source upright (`ar:0` keeps it as stored).
    package var autoRotates = true
    /// Top, right, bottom and left, in pixels before `dpr`; `nil` for none.
    package var padding: [Int]?
    /// What transparent parts and the padding are filled with; `nil` keeps transparency.
    package var background: RGBAColor?
    /// Unsharp mask sigma; `nil` for none.
    package var sharpen: Double?
    /// The side of pixelation's squares, in pixels; `nil` for none.
    package var pixelate: Int?
    /// The quality per format when `quality` is not given.
    package var formatQuality: [ImageFormat: Int] = [:]
    /// Lower the quality until the answer is this many bytes or fewer; `nil` for no bound.
    package var maxBytes: Int?
    /// Keep the source's colour profile (`scp:0`) instead of converting to sRGB.
    package var keepsColorProfile = false
    /// Answers carry none of the source's metadata (`sm`) but, with `keepsCopyright` (`kcr`),
    /// its authorship and rights.
    package var stripsMetadata = true
    package var keepsCopyright = true
    /// `ph`: a high-bit-depth source stays 16-bit where the answer's format carries it.
    package var preservesHighBitDepth = false

    /// The least width and height of the result, enlarging past `enlarge` if need be.
    package var minWidth = 0
    package var minHeight = 0
    /// Multiplies the result's sides, as `dpr` does but across and down apart.
    package var zoom = Zoom()
    /// Scale an image up to the size asked for.
    package var enlarge = false
    /// Extend a smaller result to the size asked for, placed by this gravity.
    package var extend: ImgproxyGravity?
    /// Extend the result to the aspect ratio asked for, placed by this gravity.
    package var extendAspectRatio: ImgproxyGravity?
    /// The part of the source processed, before it is scaled.
    package var crop: Crop?
    /// The border cut away first.
    package var trim: ImageProcessors.Trim?
    /// The server's watermark, laid over the result.
    package var watermark: Watermark?
    /// Source formats answered as they are, unprocessed.
    package var skipProcessing: Set<ImageFormat> = []
    /// Answer the source's bytes as they are.
    package var raw = false
    /// The server's bound on the result's longest side; the URL's `mrd` may only lower it.
    package var serverMaxResultDimension: Int?
    /// `da`: the first frame of an animation even where the answer's format could animate.
    package var disablesAnimation = false
    /// The URL's own limits (the service refuses them unless it allows them).
    package var security = ImgproxySecurityOptions()

    package struct Zoom: Hashable, Sendable {
        package var x = 1.0
        package var y = 1.0

        package init(x: Double = 1, y: Double = 1) {
            self.x = x
            self.y = y
        }
    }

    /// imgproxy's `crop`: sides of 1 or more are pixels, below 1 fractions, 0 the whole side.
    package struct Crop: Hashable, Sendable {
        package var width: Double
        package var height: Double
        package var gravity: ImgproxyGravity

        package init(width: Double, height: Double, gravity: ImgproxyGravity) {
            (self.width, self.height, self.gravity) = (width, height, gravity)
        }

        /// The window's size in an image of `size`: a side of 0 is the whole side, one below 1
        /// a fraction of it, else pixels; never more than the image.
        package func size(in size: PixelSize) -> PixelSize {
            let side = { (value: Double, whole: Int) in
                value == 0 ? whole : min(whole, value >= 1 ? PixelSize.length(value, rule: .down) : max(1, PixelSize.length(Double(whole) * value)))
            }
            return PixelSize(width: side(width, size.width), height: side(height, size.height))
        }
    }

    /// imgproxy's `watermark`: its opacity, where it goes (`nil` for tiled over the whole
    /// image, imgproxy's `re`) and its width as a fraction of the result's (0 as it is).
    package struct Watermark: Hashable, Sendable {
        package var opacity: Double
        package var position: ImgproxyGravity?
        package var offsetX: Double
        package var offsetY: Double
        package var scale: Double

        package init(opacity: Double, position: ImgproxyGravity?, offsetX: Double, offsetY: Double, scale: Double) {
            (self.opacity, self.position, self.offsetX, self.offsetY, self.scale) = (opacity, position, offsetX, offsetY, scale)
        }
    }

    package init() {}

    /// Applies one `name:arg:arg…` segment (`rules` say the separator, and which names a URL
    /// may use); `pr` applies the named `presets`.
    package mutating func apply(_ segment: Substring, presets: ImgproxyPresets, rules: ImgproxyURLRules = ImgproxyURLRules()) throws(ImgproxyError) {
        let parts = rules.argumentsSeparator == ":"
            ? segment.unicodeScalars.split(separator: ":", omittingEmptySubsequences: false).map { String(Substring($0)) }
            : segment.components(separatedBy: rules.argumentsSeparator)
        let name = parts[0], args = Array(parts.dropFirst())
        if !rules.allowedOptions.isEmpty, !rules.allowedOptions.contains(name) { throw .unsupported("forbidden processing option \(name)") }
        if name == "pr" || name == "preset" { return try presets.apply(args, to: &self) }
        guard let option = Self.optionsByName[name] else { throw .unsupported("option \(name)") }
        try option.apply(&self, args, name)
    }

    static func single(_ args: [String], _ option: String) throws(ImgproxyError) -> String {
        guard args.count == 1 else { throw .malformed("\(option) takes one argument") }
        return args[0]
    }

    static func resizingType(_ text: String) throws(ImgproxyError) -> ResizingType {
        guard let type = ResizingType(rawValue: text) else { throw .unsupported("resizing type \(text)") }
        return type
    }

    /// CSS's order: top, right, bottom, left; a side not given takes the one across (right
    /// and bottom the top, left the right). All 0 is no padding.
    static func padding(_ args: [String]) throws(ImgproxyError) -> [Int]? {
        guard (1...4).contains(args.count), args.contains(where: { !$0.isEmpty }) else { throw .malformed("padding takes 1 to 4 sides") }
        var sides: [Int?] = []
        for arg in args {
            sides.append(arg.isEmpty ? nil : try ClientNumber.size(arg, "padding"))
        }
        sides += Array(repeating: nil, count: 4 - sides.count)
        let top = sides[0] ?? 0, right = sides[1] ?? top
        let padding = [top, right, sides[2] ?? top, sides[3] ?? right]
        return padding.allSatisfy { $0 == 0 } ? nil : padding
    }

    /// `R:G:B` (0…255 each) or a hex colour; no argument clears it.
    static func background(_ args: [String]) throws(ImgproxyError) -> RGBAColor? {
        switch args.count {
        case 0: return nil
        case 1 where args[0].isEmpty: return nil
        case 1:
            guard args[0].count == 6, let color = RGBAColor(hex: args[0]) else { throw .malformed("background: a hex colour is 6 digits") }
            return color
        case 3:
            let channels = args.compactMap { UInt8($0) }
            guard channels.count == 3 else { throw .malformed("background: R, G and B are 0…255") }
            return RGBAColor(red: channels[0], green: channels[1], blue: channels[2])
        default:
            throw .malformed("background takes R:G:B or a hex colour")
        }
    }

    static func bool(_ text: String) throws(ImgproxyError) -> Bool {
        switch text {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .malformed("\(text) is not a boolean")
        }
    }

    /// The format an `f:` value or a URL's extension names (the codec's table); the service
    /// refuses one it does not write. One of imgproxy's formats that Osprey has no encoder or
    /// decoder for is ``ImgproxyError/unwritableFormat(_:)``, as imgproxy answers a format it
    /// cannot save (`422`), not an unknown name (`404`).
    static func format(_ text: String) throws(ImgproxyError) -> ImageFormat {
        guard let format = ImageFormat(fileExtension: text) else {
            throw Self.imgproxyFormats.contains(text.lowercased()) ? .unwritableFormat(text) : .unsupported("format \(text)")
        }
        return format
    }

    /// The formats imgproxy names.
    static let imgproxyFormats: Set<String> = ["jpeg", "jpg", "jxl", "png", "webp", "gif", "ico", "svg", "heic", "avif", "bmp", "tiff"]
}
