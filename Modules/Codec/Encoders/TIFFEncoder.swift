import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes TIFF with libtiff: RGB, RGBA (unassociated alpha) or grey, 8 bits a sample or 16 from
/// a 16-bit image, Deflate with the horizontal predictor (lossless); the first frame of an animation.
public struct TIFFEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .tiff, animation: false, alpha: true, lossless: true, quality: false, highBitDepth: true)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .tiff else { throw .unsupportedFormat(options.format) }
        let format: PixelFormat = image.pixelFormat == .rgba8Premultiplied ? .rgba8 : image.pixelFormat
        let source = PixelConversion.converted(image, to: format)
        guard source.bytesPerRow == source.width * format.bytesPerPixel else { throw .failed(.tiff, detail: "rows are not packed") }
        return try CEncoded.run(format: .tiff) { out, length, error, capacity in
            source.pixels.withUnsafeBufferPointer { pixels in
                osp_tiff_encode(pixels.baseAddress, UInt32(source.width), UInt32(source.height), Int32(format.channels),
                                format.isHighBitDepth ? 16 : 8, out, length, error, capacity)
            }
        }
    }
}
