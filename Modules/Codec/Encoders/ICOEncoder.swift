import Foundation
import OspreyDomain

/// Encodes ICO as one entry holding a PNG (as Windows Vista and later, browsers, Pillow and
/// imgproxy read them); alpha kept. The directory says 0 for a side of 256 or more, as ICO
/// cannot say more: readers take the PNG's own size.
public struct ICOEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .ico, animation: false, alpha: true, lossless: true, quality: false)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .ico else { throw .unsupportedFormat(options.format) }
        let png = try PNGEncoder().encode(image, options: EncodingOptions(format: .png))
        var out = Data([0, 0, 1, 0, 1, 0])
        let side = { (value: Int) in UInt8(value >= 256 ? 0 : value) }
        out.append(contentsOf: [side(image.width), side(image.height), 0, 0, 1, 0, 32, 0])
        for value in [png.count, 6 + 16] { out.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }) }
        out.append(png)
        return out
    }
}
