import OspreyDomain
import OspreyPixels

/// imgproxy's gravity: an anchor (the centre, a side, a corner, `sm` for smart, `fp` for a
/// focal point) and two numbers. For a side or corner they move the window inward from its
/// edge (pixels when 1 or more, else a fraction of the outer side); for `fp` they are the
/// point as fractions of the width and height.
package struct ImgproxyGravity: Hashable, Sendable {
    package enum Anchor: String, Sendable {
        case ce, no, so, ea, we, noea, nowe, soea, sowe, sm, fp
    }

    package var anchor: Anchor
    package var x: Double
    package var y: Double

    package init(_ anchor: Anchor = .ce, x: Double = 0, y: Double = 0) {
        self.anchor = anchor
        self.x = x
        self.y = y
    }

    /// `type[:x:y]` as a URL gives it.
    package init(_ args: [String]) throws(ImgproxyError) {
        let type = args.first.map { $0.isEmpty ? "ce" : $0 } ?? "ce"
        guard let anchor = Anchor(rawValue: type) else { throw .unsupported("gravity \(type)") }
        guard args.count <= 3 else { throw .malformed("gravity takes a type and two numbers") }
        var numbers: [Double] = []
        for text in args.dropFirst() { numbers.append(try ClientNumber.offset(text, "gravity")) }
        let (x, y) = (numbers.first ?? 0, numbers.dropFirst().first ?? 0)
        switch anchor {
        case .fp:
            guard numbers.count == 2, (0...1).contains(x), (0...1).contains(y) else { throw .malformed("gravity fp takes x and y from 0 to 1") }
        case .sm:
            guard numbers.isEmpty else { throw .malformed("gravity sm takes no offsets") }
        default:
            break
        }
        self.init(anchor, x: x, y: y)
    }

    /// The same gravity as the pipeline's, when it has no offsets.
    var cropGravity: CropGravity? {
        switch anchor {
        case .fp: return .point(x: x, y: y)
        case .sm: return .attention
        case _ where x != 0 || y != 0: return nil
        case .ce: return .centre
        case .no: return .point(x: 0.5, y: 0)
        case .so: return .point(x: 0.5, y: 1)
        case .ea: return .point(x: 1, y: 0.5)
        case .we: return .point(x: 0, y: 0.5)
        case .noea: return .point(x: 1, y: 0)
        case .nowe: return .point(x: 0, y: 0)
        case .soea: return .point(x: 1, y: 1)
        case .sowe: return .point(x: 0, y: 1)
        }
    }

    var identifier: String { "\(anchor.rawValue):\(x):\(y)" }

    /// Where an `inner` window goes in `outer`: its top left corner. Pixel offsets are
    /// multiplied by `scale` (the device pixel ratio applied). Without `overflow` the window
    /// stays inside; with it, it may hang out by all but a pixel (a watermark).
    func origin(outer: PixelSize, inner: PixelSize, scale: Double, overflow: Bool = false) -> (x: Int, y: Int) {
        var left: Int, top: Int
        if anchor == .fp {
            left = PixelSize.length(Double(outer.width) * x) - inner.width / 2
            top = PixelSize.length(Double(outer.height) * y) - inner.height / 2
        } else {
            let offset = { (value: Double, side: Int) in PixelSize.length(abs(value) >= 1 ? value * scale : Double(side) * value) }
            let (dx, dy) = (offset(x, outer.width), offset(y, outer.height))
            left = (outer.width - inner.width + 1) / 2 + dx
            top = (outer.height - inner.height + 1) / 2 + dy
            if [.no, .noea, .nowe].contains(anchor) { top = dy }
            if [.so, .soea, .sowe].contains(anchor) { top = outer.height - inner.height - dy }
            if [.ea, .noea, .soea].contains(anchor) { left = outer.width - inner.width - dx }
            if [.we, .nowe, .sowe].contains(anchor) { left = dx }
        }
        let (minX, maxX) = overflow ? (1 - inner.width, outer.width - 1) : (0, outer.width - inner.width)
        let (minY, maxY) = overflow ? (1 - inner.height, outer.height - 1) : (0, outer.height - inner.height)
        return (max(minX, min(left, maxX)), max(minY, min(top, maxY)))
    }

    /// The `size` window of `image` this gravity picks (the smart one by attention).
    func crop(_ image: Image, to size: PixelSize, scale: Double) -> Image {
        let size = PixelSize(width: min(size.width, image.width), height: min(size.height, image.height))
        guard size != image.size, !size.isEmpty else { return image }
        let origin = anchor == .sm ? GravityCrop.origin(in: image, size: size, gravity: .attention)
            : self.origin(outer: image.size, inner: size, scale: scale)
        return GravityCrop.crop(image, origin: origin, size: size)
    }
}
