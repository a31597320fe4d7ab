import Foundation

/// Maps HDR pixels (PQ or HLG, any of H.273's primaries) to SDR sRGB, as browsers and
/// Apple's loaders show HDR photos on SDR displays instead of clipping or washing them out.
///
/// The operator (written down in `Docs/CODEC.md`):
/// 1. Samples to display light in nits: PQ by SMPTE ST 2084's EOTF; HLG by BT.2100's inverse
///    OETF and its OOTF for a 1000-nit display (system gamma 1.2).
/// 2. The source primaries to BT.709's, in linear light.
/// 3. ITU-R BT.2390's EETF, in PQ space, on the maximum of R, G and B (so hue is kept), from the
///    image's own peak (its brightest sample, at least the SDR white) down to BT.2408's SDR
///    reference white of 203 nits; RGB are scaled by the same factor.
/// 4. 203 nits becomes 1.0, colours outside BT.709's gamut are clipped, and sRGB's curve
///    encodes 8 bits.
package struct HDRToneMapping {
    /// The two HDR transfer functions of H.273 (code points 16 and 18).
    package enum Transfer: Int, Sendable {
        case pq = 16
        case hlg = 18

        /// `PQ` or `HLG`.
        package var name: String { self == .pq ? "PQ" : "HLG" }
    }

    /// BT.2408's reference white: the nits that become SDR white.
    static let referenceWhite = 203.0

    package let transfer: Transfer
    /// Source linear RGB to BT.709 linear RGB, row-major.
    private let toBT709: [Double]
    private let peak: Double

    /// A mapping for `transfer` and the primaries' chromaticities (red, green, blue as x, y),
    /// whose brightest sample is `maximumSample` of `sampleMaximum`.
    package init(transfer: Transfer, primaries: [(Double, Double)], maximumSample: Int, sampleMaximum: Int) {
        self.transfer = transfer
        toBT709 = Self.conversion(from: primaries)
        self.sampleMaximum = sampleMaximum
        // Each code value's light, computed once a mapping (an AVIF maps strip by strip):
        // 1024 entries for 10 bits, 65536 for 16.
        light = (0...sampleMaximum).map { Self.sceneOrDisplayLinear(transfer, Double($0) / Double(sampleMaximum)) }
        let brightest = Self.displayNits(transfer, Double(maximumSample) / Double(sampleMaximum))
        peak = max(brightest, Self.referenceWhite)
        sourcePQ = Self.pqInverse(peak)
        targetPQ = Self.pqInverse(Self.referenceWhite)
        factors = []
        factors = (0...Self.steps).map { step in
            let nits = peak * pow(Double(step) / Double(Self.steps), 2)
            return step == 0 ? 1 / Self.referenceWhite : eetf(nits) / nits / Self.referenceWhite
        }
    }

    private let sourcePQ: Double
    private let targetPQ: Double
    private let sampleMaximum: Int
    private let light: [Double]
    /// `eetf(n) / n / 203` at n = peak × (i / steps)², interpolated: four `pow` a pixel
    /// otherwise make a 12-megapixel photo take seconds.
    private var factors: [Double]
    private static let steps = 4096

    /// The scale that maps a pixel whose brightest channel is `nits` to SDR (1.0 = white).
    private func factor(_ nits: Double) -> Double {
        guard nits < peak else { return eetf(nits) / nits / Self.referenceWhite }
        let position = (nits / peak).squareRoot() * Double(Self.steps)
        let index = Int(position)
        return factors[index] + (factors[index + 1] - factors[index]) * (position - Double(index))
    }

    /// The transfer of a CICP code point, or `nil` for SDR ones.
    package static func transfer(cicp: Int) -> Transfer? { Transfer(rawValue: cicp) }

    /// `samples` (interleaved RGB or RGBA of `channels`, each of `bits` bits in a `UInt16`)
    /// mapped to 8-bit sRGB with the same channels; alpha is rescaled, not tone-mapped.
    package static func map(_ samples: UnsafeBufferPointer<UInt16>, channels: Int, bits: Int, transfer: Transfer,
                            primaries: [(Double, Double)], into output: UnsafeMutableBufferPointer<UInt8>) {
        let maximum = (1 << bits) - 1
        let mapping = HDRToneMapping(transfer: transfer, primaries: primaries, maximumSample: min(brightestSample(in: samples, channels: channels), maximum),
                                     sampleMaximum: maximum)
        mapping.map(samples, channels: channels, into: output)
    }

    /// The largest colour sample (alpha aside) of interleaved `samples`.
    package static func brightestSample(in samples: UnsafeBufferPointer<UInt16>, channels: Int) -> Int {
        var brightest = 0
        for index in 0..<samples.count where index % channels < 3 { brightest = max(brightest, Int(samples[index])) }
        return brightest
    }

    /// `samples` mapped into `output` pixel by pixel (see the type's description).
    package func map(_ samples: UnsafeBufferPointer<UInt16>, channels: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let alphaScale = 255 / Double(sampleMaximum)
        let encode = SRGBEncoder()
        for pixel in 0..<samples.count / channels {
            let base = pixel * channels
            var rgb = (light[min(Int(samples[base]), sampleMaximum)], light[min(Int(samples[base + 1]), sampleMaximum)],
                       light[min(Int(samples[base + 2]), sampleMaximum)])
            if transfer == .hlg { rgb = hlgOOTF(rgb) }
            let m = toBT709
            var r = m[0] * rgb.0 + m[1] * rgb.1 + m[2] * rgb.2
            var g = m[3] * rgb.0 + m[4] * rgb.1 + m[5] * rgb.2
            var b = m[6] * rgb.0 + m[7] * rgb.1 + m[8] * rgb.2
            let gain = factor(max(r, g, b, 0))
            r *= gain
            g *= gain
            b *= gain
            output[base] = encode(r)
            output[base + 1] = encode(g)
            output[base + 2] = encode(b)
            if channels == 4 { output[base + 3] = UInt8(min(255, (Double(samples[base + 3]) * alphaScale).rounded())) }
        }
    }

    /// BT.2390's EETF on nits: identity below its knee, a Hermite spline above, so that the
    /// source peak lands on the target peak.
    func eetf(_ nits: Double) -> Double {
        guard sourcePQ > targetPQ else { return nits }
        let e1 = min(Self.pqInverse(nits) / sourcePQ, 1)
        let maxLum = targetPQ / sourcePQ
        let knee = 1.5 * maxLum - 0.5
        guard e1 > knee else { return nits }
        let t = (e1 - knee) / (1 - knee)
        let (t2, t3) = (t * t, t * t * t)
        let e2 = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLum
        return Self.pq(min(e2, 1) * sourcePQ)
    }

    /// A sample's light: nits for PQ, scene light (0...1) for HLG, whose OOTF needs all three.
    private static func sceneOrDisplayLinear(_ transfer: Transfer, _ signal: Double) -> Double {
        transfer == .pq ? pq(signal) : hlgInverseOETF(signal)
    }

    /// The display light of one signal value, for finding the image's peak.
    static func displayNits(_ transfer: Transfer, _ signal: Double) -> Double {
        transfer == .pq ? pq(signal) : 1000 * hlgInverseOETF(signal)
    }

    // SMPTE ST 2084.
    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    /// PQ signal (0...1) to nits.
    static func pq(_ signal: Double) -> Double {
        let p = pow(max(signal, 0), 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// Nits to PQ signal (0...1).
    static func pqInverse(_ nits: Double) -> Double {
        let y = pow(max(nits, 0) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// BT.2100 HLG: signal to normalised scene light.
    static func hlgInverseOETF(_ signal: Double) -> Double {
        let (a, b, c) = (0.17883277, 0.28466892, 0.55991073)
        return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
    }

    /// BT.2100 HLG's OOTF for a 1000-nit display: scene light to nits, by BT.2020 luminance
    /// (its gain `1000 Y^0.2` from a table on a square-root scale).
    private func hlgOOTF(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let luminance = min(max(0.2627 * rgb.0 + 0.6780 * rgb.1 + 0.0593 * rgb.2, 0), 1)
        let position = luminance.squareRoot() * Double(Self.steps)
        let index = min(Int(position), Self.steps - 1)
        let gain = Self.hlgGains[index] + (Self.hlgGains[index + 1] - Self.hlgGains[index]) * (position - Double(index))
        return (gain * rgb.0, gain * rgb.1, gain * rgb.2)
    }

    private static let hlgGains: [Double] = (0...steps).map { 1000 * pow(pow(Double($0) / Double(steps), 2), 0.2) }

    /// Linear RGB in `primaries` (D65 white) to BT.709 linear RGB.
    static func conversion(from primaries: [(Double, Double)]) -> [Double] {
        Matrix3.product(Matrix3.inverse(Matrix3.rgbToXYZ(ColorCodePoints.bt709)), Matrix3.rgbToXYZ(primaries))
    }

    /// sRGB's encoding of linear light (0...1, clipped) to 8 bits, through a table of 4096 steps.
    private struct SRGBEncoder {
        private let table: [UInt8] = (0...4095).map { step in
            let v = Double(step) / 4095
            let encoded = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((encoded * 255).rounded())
        }

        func callAsFunction(_ linear: Double) -> UInt8 {
            table[Int((min(max(linear, 0), 1) * 4095).rounded())]
        }
    }
}
