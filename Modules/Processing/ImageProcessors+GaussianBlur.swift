import Foundation
import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// A Gaussian blur whose `radius` is twice its standard deviation (σ = radius / 2); the
    /// kernel reaches 3σ. Separable, with edges extended; alpha is blurred premultiplied so
    /// transparent pixels do not bleed colour. Keeps the input's pixel format.
    public struct GaussianBlur: ImageProcessing, Hashable {
        public var radius: Int

        /// Creates a blur; radius 0 leaves the image as it is.
        public init(radius: Int) { self.radius = radius }

        public var identifier: String { "blur(\(radius))" }

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard radius >= 0 else { throw .invalidParameters(processor: identifier, reason: "the radius must not be negative") }
            guard radius > 0 else { return image }
            let source = image.pixelFormat == .rgba8Premultiplied ? PixelConversion.unpremultiplied(image) : image
            let kernel = Self.kernel(sigma: Double(radius) / 2)
            let bpp = source.pixelFormat.bytesPerPixel, alpha = source.pixelFormat.hasAlpha
            let w = source.width, h = source.height
            // Premultiplied floats, tightly packed.
            var plane = [Float](repeating: 0, count: w * h * bpp)
            for y in 0..<h {
                for x in 0..<w {
                    let p = y * source.bytesPerRow + x * bpp, q = (y * w + x) * bpp
                    let a: Float = alpha ? Float(source.pixels[p + 3]) / 255 : 1
                    for c in 0..<bpp { plane[q + c] = alpha && c < 3 ? Float(source.pixels[p + c]) * a : Float(source.pixels[p + c]) }
                }
            }
            plane = Self.pass(plane, width: w, height: h, bpp: bpp, kernel: kernel, horizontal: true)
            plane = Self.pass(plane, width: w, height: h, bpp: bpp, kernel: kernel, horizontal: false)
            var pixels = [UInt8](repeating: 0, count: w * h * bpp)
            for i in stride(from: 0, to: plane.count, by: bpp) {
                let a = alpha ? plane[i + 3] / 255 : 1
                for c in 0..<bpp {
                    let value = alpha && c < 3 ? (a > 0 ? plane[i + c] / a : 0) : plane[i + c]
                    pixels[i + c] = Resampler.clampByte(value)
                }
            }
            return try! Image(width: w, height: h, pixelFormat: source.pixelFormat, pixels: pixels)
        }

        /// Normalised weights from -reach to +reach, reach = ⌈3σ⌉.
        static func kernel(sigma: Double) -> [Float] {
            let reach = Int((3 * sigma).rounded(.up))
            let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = weights.reduce(0, +)
            return weights.map { Float($0 / total) }
        }

        /// One direction of the separable convolution, clamping at the edges.
        static func pass(_ plane: [Float], width: Int, height: Int, bpp: Int, kernel: [Float], horizontal: Bool) -> [Float] {
            var out = [Float](repeating: 0, count: plane.count)
            let reach = kernel.count / 2
            plane.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        for x in 0..<width {
                            let q = (y * width + x) * bpp
                            for k in 0..<kernel.count {
                                let offset = k - reach
                                let sx = horizontal ? min(max(x + offset, 0), width - 1) : x
                                let sy = horizontal ? y : min(max(y + offset, 0), height - 1)
                                let p = (sy * width + sx) * bpp
                                let weight = kernel[k]
                                for c in 0..<bpp { dst[q + c] += src[p + c] * weight }
                            }
                        }
                    }
                }
            }
            return out
        }
    }
}
