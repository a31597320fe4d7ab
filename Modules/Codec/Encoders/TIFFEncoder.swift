import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes TIFF with libtiff: 8-bit RGB, RGBA (unassociated alpha) or grey, Deflate with the
/// horizontal predictor (lossless); the first frame of an animation.
public struct TIFFEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .tiff, animation: false, alpha: true, lossless: true, quality: false)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .tiff else { throw .unsupportedFormat(options.format) }
        let format: PixelFormat = image.pixelFormat == .rgba8Premultiplied ? .rgba8 : image.pixelFormat
        let source = PixelConversion.converted(image, to: format)
        guard source.bytesPerRow == source.width * format.bytesPerPixel else { throw .failed(.tiff, detail: "rows are not packed") }
        return try CEncoded.run(format: .tiff) { out, length, error, capacity in
            source.pixels.withUnsafeBufferPointer { pixels in
                osp_tiff_encode(pixels.baseAddress, UInt32(source.width), UInt32(source.height), Int32(format.bytesPerPixel),
                                out, length, error, capacity)
            }
        }
    }
}
