import Foundation
import OspreyDomain
import OspreyPixels

extension ImageProcessors {
    /// A Gaussian blur whose `radius` is twice its standard deviation (σ = radius / 2); the
    /// kernel reaches 3σ. Separable, with edges extended; alpha is blurred premultiplied so
    /// transparent pixels do not bleed colour. Keeps the input's pixel format.
    ///
    /// Up to σ = 4 the kernel is the Gaussian itself; beyond, three box blurs of the same
    /// variance stand in for it (within a few levels of the exact result), so that the cost
    /// is a few additions a pixel however large the radius.
    public struct GaussianBlur: ImageProcessing, Hashable {
        public var radius: Int

        /// Creates a blur; radius 0 leaves the image as it is.
        public init(radius: Int) { self.radius = radius }

        public var identifier: String { "blur(\(radius))" }

        /// The largest σ blurred with the exact kernel (25 taps).
        static let largestExactSigma = 4.0

        public func process(_ image: Image) throws(ImageProcessingError) -> Image {
            guard radius >= 0 else { throw .invalidParameters(processor: identifier, reason: "the radius must not be negative") }
            guard radius > 0 else { return image }
            let source = image.pixelFormat == .rgba8Premultiplied ? PixelConversion.unpremultiplied(image) : image
            var plane = try FloatPlane(source)
            let sigma = Double(radius) / 2
            if sigma <= Self.largestExactSigma {
                let kernel = Self.kernel(sigma: sigma)
                try plane.convolve(with: kernel, horizontal: true)
                try plane.convolve(with: kernel, horizontal: false)
            } else {
                for reach in Self.boxReaches(sigma: sigma) {
                    try plane.boxBlur(reach: reach, horizontal: true)
                    try plane.boxBlur(reach: reach, horizontal: false)
                }
            }
            return try plane.image(like: source)
        }

        /// Normalised weights from -reach to +reach, reach = ⌈3σ⌉.
        static func kernel(sigma: Double) -> [Float] {
            let reach = Int((3 * sigma).rounded(.up))
            let weights = (-reach...reach).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
            let total = weights.reduce(0, +)
            return weights.map { Float($0 / total) }
        }

        /// The reaches of three boxes whose variances add up to σ² (Wells, 1986: boxes of two
        /// neighbouring odd widths).
        static func boxReaches(sigma: Double) -> [Int] {
            let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
            var lower = Int(ideal.rounded(.down))
            if lower % 2 == 0 { lower -= 1 }
            let upper = lower + 2
            let wl = Double(lower)
            let lowerCount = Int(((12 * sigma * sigma - 3 * wl * wl - 12 * wl - 9) / (-4 * wl - 4)).rounded())
            return (0..<3).map { $0 < lowerCount ? (lower - 1) / 2 : (upper - 1) / 2 }
        }
    }
}
