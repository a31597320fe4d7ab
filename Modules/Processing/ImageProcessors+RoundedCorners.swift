import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Makes the corners transparent along quarter circles of `radius` pixels, antialiased:
    /// an edge pixel keeps the share of its area that lies inside the curve. Returns RGBA.
    public struct RoundedCorners: ImageProcessing, Hashable {
        public var radius: Int

        /// Creates the processor; a radius larger than half a side is reduced to it.
        public init(radius: Int) { self.radius = radius }

        public var identifier: String { "round(\(radius))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard radius >= 0 else { throw .invalidParameters(processor: identifier, reason: "the radius must not be negative") }
            let r = min(Double(radius), Double(min(image.width, image.height)) / 2)
            return CornerMask.apply(radius: r, to: image)
        }
    }

    /// Crops the centre square and makes everything outside its inscribed circle
    /// transparent, antialiased — the avatar shape. Returns RGBA.
    public struct Circle: ImageProcessing, Hashable {
        /// Creates the processor.
        public init() {}

        public var identifier: String { "circle" }

        public func outputSize(for input: PixelSize) -> PixelSize {
            PixelSize(width: min(input.width, input.height), height: min(input.width, input.height))
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            let side = min(image.width, image.height)
            let square = GravityCrop.crop(image, to: PixelSize(width: side, height: side))
            return CornerMask.apply(radius: Double(side) / 2, to: square)
        }
    }
}

/// Multiplies alpha by the coverage of each pixel by a rounded rectangle the size of the image.
enum CornerMask {
    /// Samples per side of a pixel when measuring coverage (16 levels of edge).
    static let samples = 4

    static func apply(radius r: Double, to image: Image) -> Image {
        var buffer = RGBABuffer(image)
        guard r > 0 else { return buffer.image }
        let w = Double(image.width), h = Double(image.height)
        let reach = Int(r.rounded(.up))
        for y in 0..<image.height {
            let nearTop = y < reach, nearBottom = y >= image.height - reach
            guard nearTop || nearBottom else { continue }
            for x in 0..<image.width where x < reach || x >= image.width - reach {
                // The corner's circle centre nearest this pixel.
                let cx = Double(x) < w / 2 ? r : w - r
                let cy = Double(y) < h / 2 ? r : h - r
                let coverage = Self.coverage(x: x, y: y, cx: cx, cy: cy, r: r, w: w, h: h)
                guard coverage < 1 else { continue }
                let a = (y * image.width + x) * 4 + 3
                buffer.pixels[a] = UInt8((Double(buffer.pixels[a]) * coverage).rounded())
            }
        }
        return buffer.image
    }

    /// The share of pixel (x, y) inside the rounded rectangle, by supersampling.
    static func coverage(x: Int, y: Int, cx: Double, cy: Double, r: Double, w: Double, h: Double) -> Double {
        var inside = 0
        for sy in 0..<samples {
            for sx in 0..<samples {
                let px = Double(x) + (Double(sx) + 0.5) / Double(samples)
                let py = Double(y) + (Double(sy) + 0.5) / Double(samples)
                // Only the part beyond the circle's centre, towards the corner, is curved.
                let outsideX = px < r || px > w - r, outsideY = py < r || py > h - r
                if !(outsideX && outsideY) {
                    inside += 1
                } else {
                    let dx = px - cx, dy = py - cy
                    if dx * dx + dy * dy <= r * r { inside += 1 }
                }
            }
        }
        return Double(inside) / Double(samples * samples)
    }
}
