import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes PNG with libpng, keeping alpha (straight, not premultiplied) and 16-bit samples, an
/// HDR signal's code points in `cICP`.
public struct PNGEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .png, animation: false, alpha: true, lossless: true, quality: false, highBitDepth: true, hdr: true)] }

    /// zlib compression level 0...9.
    public var compressionLevel: Int

    /// Creates an encoder; level 6 is zlib's usual balance of size and speed.
    public init(compressionLevel: Int = 6) { self.compressionLevel = compressionLevel }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .png else { throw .unsupportedFormat(options.format) }
        let format: PixelFormat = image.pixelFormat == .rgba8Premultiplied ? .rgba8 : image.pixelFormat
        let source = PixelConversion.converted(image, to: format)
        let level = Int32(max(0, min(9, compressionLevel)))
        let icc = [UInt8](image.colorProfile?.data ?? Data())
        let encoded = try CEncoded.run(format: .png) { out, length, error, capacity in
            source.pixels.withUnsafeBufferPointer { pixels in
                icc.withUnsafeBufferPointer { profile in
                    osp_png_encode(pixels.baseAddress, UInt32(source.width), UInt32(source.height), source.bytesPerRow,
                                   Int32(source.pixelFormat.channels), source.pixelFormat.isHighBitDepth ? 16 : 8, level,
                                   profile.baseAddress, profile.count,
                                   out, length, error, capacity)
                }
            }
        }
        // An HDR signal's code points in `cICP` (PNG's third edition): RGB, full range.
        let stated = source.pixelFormat.isHighBitDepth ? image.colorCodePoints : nil
        let cicp = stated.map { MetadataWriter.chunk("cICP", Data([UInt8(clamping: $0.primaries), UInt8(clamping: $0.transfer), 0, 1])) }
        return MetadataWriter.png(MetadataWriter.inserting(cicp ?? Data(), into: encoded), image.metadata?.kept(by: options.metadata))
    }
}
