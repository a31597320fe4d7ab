import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// Lays another image over this one at a given corner, with an opacity, as a watermark:
    /// imgproxy's `watermark`, sharp's `composite`. The overlay may hang over the edges (the
    /// part outside is cut), or repeat across the whole image.
    public struct Overlay: ImageProcessing {
        /// The image laid over.
        public var overlay: Image
        /// Names the overlay in ``identifier`` (for example a digest of its file), so that a
        /// different overlay makes a different cache key.
        public var name: String
        /// Where the overlay's top left corners go, given the image's and the overlay's sizes.
        public var placement: Placement
        /// 0…1, multiplied into the overlay's alpha.
        public var opacity: Double

        /// Where an overlay goes.
        public enum Placement: Sendable {
            /// Once, its top left corner at this point (which may be outside the image).
            case at(x: Int, y: Int)
            /// Tiled from the top left corner, `spacing` pixels apart across and down.
            case tiled(spacingX: Int, spacingY: Int)
        }

        /// Creates the processor.
        public init(_ overlay: Image, name: String, placement: Placement, opacity: Double = 1) {
            self.overlay = overlay
            self.name = name
            self.placement = placement
            self.opacity = opacity
        }

        public var identifier: String {
            let place = switch placement {
            case let .at(x, y): "\(x),\(y)"
            case let .tiled(x, y): "tiled,\(x),\(y)"
            }
            return "overlay(\(name),\(overlay.size),\(place),\(opacity))"
        }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard (0...1).contains(opacity) else { throw .invalidParameters(processor: identifier, reason: "the opacity is not 0…1") }
            guard !overlay.size.isEmpty, opacity > 0 else { return image }
            let top = RGBABuffer(overlay)
            var base = RGBABuffer(image)
            let opacity = Int((opacity * 255).rounded())
            var rowsLaid = 0
            func lay(atX originX: Int, y originY: Int) throws(ImageProcessingError) {
                for row in max(0, -originY)..<max(0, min(overlay.height, image.height - originY)) {
                    if rowsLaid & 63 == 0 { try ImageProcessingError.checkCancellation() }
                    rowsLaid += 1
                    for column in max(0, -originX)..<max(0, min(overlay.width, image.width - originX)) {
                        let from = (row * overlay.width + column) * 4
                        let to = ((originY + row) * image.width + originX + column) * 4
                        Self.blend(top.pixels[from..<from + 4], opacity: opacity, over: &base.pixels, at: to)
                    }
                }
            }
            switch placement {
            case let .at(x, y):
                try lay(atX: x, y: y)
            case let .tiled(spacingX, spacingY):
                // Tile by tile, never as a list: a small overlay tiles a large image many times.
                for y in stride(from: 0, to: image.height, by: max(1, overlay.height + spacingY)) {
                    for x in stride(from: 0, to: image.width, by: max(1, overlay.width + spacingX)) { try lay(atX: x, y: y) }
                }
            }
            return base.image(like: image)
        }

        /// Source-over of one straight-alpha pixel onto another.
        private static func blend(_ pixel: ArraySlice<UInt8>, opacity: Int, over base: inout [UInt8], at index: Int) {
            let o = pixel.startIndex
            let alpha = Int(pixel[o + 3]) * opacity / 255
            guard alpha > 0 else { return }
            let under = Int(base[index + 3])
            let outAlpha = alpha * 255 + under * (255 - alpha)  // ×255
            guard outAlpha > 0 else { return }
            for channel in 0..<3 {
                let value = Int(pixel[o + channel]) * alpha * 255 + Int(base[index + channel]) * under * (255 - alpha)
                base[index + channel] = UInt8((value + outAlpha / 2) / outAlpha)
            }
            base[index + 3] = UInt8((outAlpha + 127) / 255)
        }
    }
}
