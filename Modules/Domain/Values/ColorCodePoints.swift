/// The colour of an image's RGB samples told by H.273 code points (CICP), as AVIF and HEIF
/// `nclx` boxes, JPEG XL colour encodings and PNG's `cICP` chunk tell it.
///
/// Carried on an ``Image`` whose samples are an HDR signal (PQ or HLG) kept at high bit
/// depth (``DecodingOptions/keepsHighBitDepth``), which no ICC profile describes: encoders that
/// can state the code points write them (``EncoderCapabilities/hdr``), and the image is
/// tone-mapped to SDR when narrowed to 8 bits (``Image/narrowedToEightBits``).
public struct ColorCodePoints: Hashable, Sendable {
    /// H.273 colour primaries: 1 BT.709, 9 BT.2020, 11 DCI-P3, 12 Display P3, …
    public var primaries: Int
    /// H.273 transfer characteristics: 16 PQ (SMPTE ST 2084), 18 HLG, 13 sRGB, …
    public var transfer: Int

    /// Code points for full-range RGB samples.
    public init(primaries: Int, transfer: Int) {
        self.primaries = primaries
        self.transfer = transfer
    }

    /// Whether the samples are an HDR signal, PQ or HLG.
    public var isHDR: Bool { HDRToneMapping.transfer(cicp: transfer) != nil }

    /// The x, y of red, green and blue for these primaries, or `nil` for code points not listed.
    package var chromaticities: [(Double, Double)]? { Self.chromaticities(primaries) }

    /// BT.709's (and sRGB's) primaries: red, green, blue as x, y.
    package static let bt709 = [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)]

    /// The x, y of red, green and blue for H.273 primaries `code`, or `nil` for ones not listed.
    package static func chromaticities(_ code: Int) -> [(Double, Double)]? {
        switch code {
        case 1, 2: bt709
        case 5: [(0.640, 0.330), (0.290, 0.600), (0.150, 0.060)]
        case 6, 7: [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)]
        case 9: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
        case 11, 12: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
        default: nil
        }
    }

    /// An HDR signal's samples (RGB or RGBA of `channels`, 16 bits) mapped to 8-bit sRGB.
    package func toneMapped(_ samples: UnsafeBufferPointer<UInt16>, channels: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        guard let transfer = HDRToneMapping.transfer(cicp: transfer) else { return }
        HDRToneMapping.map(samples, channels: channels, bits: 16, transfer: transfer, primaries: chromaticities ?? Self.bt709, into: output)
    }
}
