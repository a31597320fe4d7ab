import CWebP
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes WebP with libwebp: lossy at a quality, or lossless; alpha kept.
public struct WebPEncoder: ImageEncoding {
    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .webp else { throw .unsupportedFormat(options.format) }
        let alpha = image.pixelFormat.hasAlpha
        let source = PixelConversion.converted(image, to: alpha ? .rgba8 : .rgb8)
        let quality = Float(max(0, min(1, options.quality)) * 100)
        var output: UnsafeMutablePointer<UInt8>?
        let (w, h, stride) = (Int32(source.width), Int32(source.height), Int32(source.bytesPerRow))
        let size = source.pixels.withUnsafeBufferPointer { px -> Int in
            switch (alpha, options.lossless) {
            case (true, true): WebPEncodeLosslessRGBA(px.baseAddress, w, h, stride, &output)
            case (true, false): WebPEncodeRGBA(px.baseAddress, w, h, stride, quality, &output)
            case (false, true): WebPEncodeLosslessRGB(px.baseAddress, w, h, stride, &output)
            case (false, false): WebPEncodeRGB(px.baseAddress, w, h, stride, quality, &output)
            }
        }
        guard size > 0, let output else { throw .failed(.webp, detail: "libwebp could not encode a \(source.width)x\(source.height) image") }
        defer { WebPFree(output) }
        return Data(bytes: output, count: size)
    }
}
