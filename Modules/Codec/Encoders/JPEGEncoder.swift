import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes JPEG with libjpeg-turbo. Alpha is composited onto white (JPEG has none).
public struct JPEGEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .jpeg, animation: false, alpha: false, lossless: false, quality: true)] }
    /// Writes progressive JPEG (a blurred whole first, then detail) rather than baseline.
    public var progressive: Bool

    /// Creates an encoder, of baseline JPEG unless `progressive`.
    public init(progressive: Bool = false) { self.progressive = progressive }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .jpeg else { throw .unsupportedFormat(options.format) }
        let source = PixelConversion.converted(image, to: image.pixelFormat == .gray8 ? .gray8 : .rgb8)
        let quality = Int32(max(1, min(100, (options.quality * 100).rounded())))
        let icc = [UInt8](image.colorProfile?.data ?? Data())
        let encoded = try CEncoded.run(format: .jpeg) { out, length, error, capacity in
            source.pixels.withUnsafeBufferPointer { pixels in
                icc.withUnsafeBufferPointer { profile in
                    osp_jpeg_encode(pixels.baseAddress, UInt32(source.width), UInt32(source.height), source.bytesPerRow,
                                    Int32(source.pixelFormat.bytesPerPixel), quality, progressive ? 1 : 0, profile.baseAddress, profile.count,
                                    out, length, error, capacity)
                }
            }
        }
        return MetadataWriter.jpeg(encoded, image.metadata?.kept(by: options.metadata))
    }
}
