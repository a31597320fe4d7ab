import CCodecLoader
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes HEIC with libheif's HEVC encoder (x265 in Debian's libheif), as imgproxy writes it:
/// 8-bit (10-bit from a 16-bit image), alpha kept, quality 0…1 as libheif's 0…100; a carried
/// profile or an HDR signal's code points, and the metadata the options keep, embedded. libheif
/// is opened on the first HEIC written.
public struct HEICEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .heic, animation: false, alpha: true, lossless: false, quality: true, highBitDepth: true, hdr: true)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .heic else { throw .unsupportedFormat(options.format) }
        let alpha = image.pixelFormat.hasAlpha
        let sixteen = image.pixelFormat.isHighBitDepth
        let source = PixelConversion.converted(image, to: alpha ? (sixteen ? .rgba16 : .rgba8) : (sixteen ? .rgb16 : .rgb8))
        let quality = Int32(max(0, min(100, (options.quality * 100).rounded())))
        let icc = [UInt8](image.colorProfile?.data ?? Data())
        let hdr = sixteen ? image.colorCodePoints : nil
        let metadata = image.metadata?.kept(by: options.metadata)
        let exif = [UInt8](metadata?.exif ?? Data()), xmp = [UInt8](metadata?.xmp ?? Data())
        return try CEncoded.run(format: .heic) { out, length, error, capacity in
            source.pixels.withUnsafeBufferPointer { pixels in
                icc.withUnsafeBufferPointer { icc in
                    exif.withUnsafeBufferPointer { exif in
                        xmp.withUnsafeBufferPointer { xmp in
                            osp_heif_encode(pixels.baseAddress, Int32(source.width), Int32(source.height), source.bytesPerRow,
                                            Int32(source.pixelFormat.channels), sixteen ? 16 : 8, quality, icc.baseAddress, icc.count,
                                            Int32(hdr?.primaries ?? 0), Int32(hdr?.transfer ?? 0), exif.baseAddress, exif.count, xmp.baseAddress, xmp.count, out, length, error, capacity)
                        }
                    }
                }
            }
        }
    }
}
