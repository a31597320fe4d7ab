import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes BMP: 24-bit BGR for an opaque image, 32-bit BGRA with a V4 header and its bit masks
/// for one with alpha (as Pillow, libvips and browsers read them); rows bottom-up, padded to 4
/// bytes; the first frame of an animation.
public struct BMPEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .bmp, animation: false, alpha: true, lossless: true, quality: false)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .bmp else { throw .unsupportedFormat(options.format) }
        return Self.bitmap(image, fileHeader: true)
    }

    /// The image as a DIB (V4 header with alpha, else INFO), with BMP's file header or, for an
    /// ICO entry, the AND mask after it and the height doubled.
    static func bitmap(_ image: Image, fileHeader: Bool) -> Data {
        let alpha = image.pixelFormat.hasAlpha
        let source = PixelConversion.converted(image, to: alpha ? .rgba8 : .rgb8)
        let (width, height, channels) = (source.width, source.height, alpha ? 4 : 3)
        let stride = (width * channels + 3) / 4 * 4
        let headerSize = alpha && fileHeader ? 108 : 40
        let maskStride = (width + 31) / 32 * 4
        let mask = fileHeader ? 0 : maskStride * height
        let pixelOffset = (fileHeader ? 14 : 0) + headerSize
        var out = Data(capacity: pixelOffset)
        func le(_ value: Int, _ bytes: Int) { for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        if fileHeader {
            out.append(contentsOf: Array("BM".utf8))
            le(pixelOffset + stride * height, 4)
            le(0, 4)
            le(pixelOffset, 4)
        }
        le(headerSize, 4)
        le(width, 4)
        le(fileHeader ? height : height * 2, 4)
        le(1, 2)
        le(channels * 8, 2)
        le(alpha && fileHeader ? 3 : 0, 4)  // BI_BITFIELDS with the masks below, else BI_RGB
        le(stride * height + mask, 4)
        le(2835, 4)  // 72 DPI, in pixels a metre
        le(2835, 4)
        le(0, 4)
        le(0, 4)
        if headerSize == 108 {
            for value in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { le(value, 4) }
            out.append(contentsOf: Array("BGRs".utf8.reversed()))  // LCS_sRGB, stored little-endian
            out.append(contentsOf: [UInt8](repeating: 0, count: 48))  // endpoints and gamma, unused for sRGB
        }
        // Rows bottom-up, each converted whole; padding and an ICO's AND mask stay zero (all
        // clear: the alpha channel, or opacity, says it all).
        out.append(Data(count: stride * height + mask))
        out.withUnsafeMutableBytes { file in
            source.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * source.bytesPerRow
                    let target = file.baseAddress!.assumingMemoryBound(to: UInt8.self) + pixelOffset + (height - 1 - y) * stride
                    if alpha { osp_bmp_swap4(row, target, width) } else { osp_bmp_swap3(row, target, width) }
                }
            }
        }
        return out
    }
}
