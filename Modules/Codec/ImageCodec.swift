import Foundation
import OspreyDomain

/// The default codec: decodes JPEG, PNG (and APNG), WebP, GIF, AVIF and HEIC — chosen by
/// magic bytes, never by file extension or Content-Type — and encodes JPEG, PNG, WebP and AVIF.
///
/// ```swift
/// let codec = ImageCodec()
/// let thumbnail = try codec.decode(.file(path: "photo.jpg"),
///                                  options: DecodingOptions(targetSize: PixelSize(width: 640, height: 640)))
/// let jpeg = try codec.encode(thumbnail, options: EncodingOptions(format: .jpeg, quality: 0.8))
/// ```
public struct ImageCodec: ImageDecoding, ImageEncoding {
    /// The limits checked before decoding.
    public var limits: DecodingLimits
    /// Whether JPEG files that end early decode partially (see ``JPEGDecoder/acceptsTruncatedFiles``).
    public var acceptsTruncatedJPEG: Bool

    /// Creates a codec with the given limits.
    public init(limits: DecodingLimits = .default, acceptsTruncatedJPEG: Bool = false) {
        self.limits = limits
        self.acceptsTruncatedJPEG = acceptsTruncatedJPEG
    }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix)
    }

    /// Decodes `input` at the options' target size: inside it for `fit`, exactly it for `fill`
    /// (the covering size with its centre cropped), never larger than the original.
    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        switch try detectFormat(of: InputReader.prefix(of: input)) {
        case .jpeg: try JPEGDecoder(limits: limits, acceptsTruncatedFiles: acceptsTruncatedJPEG).decode(input, options: options)
        case .png: try PNGDecoder(limits: limits).decode(input, options: options)
        case .gif: try GIFDecoder(limits: limits).decode(input, options: options)
        case .webp: try WebPDecoder(limits: limits).decode(input, options: options)
        case .avif: try AVIFDecoder(limits: limits).decode(input, options: options)
        case .heic: try HEICDecoder(limits: limits).decode(input, options: options)
        case let format: throw .unsupportedFormat(format)
        }
    }

    /// A JPEG's DCT-scaled decode, kept by the pipeline to make later sizes from; `nil` for
    /// the other formats, whose decoders have no cheaper reduced decode.
    public func decodeReduction(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        guard try detectFormat(of: InputReader.prefix(of: input)) == .jpeg else { return nil }
        return try JPEGDecoder(limits: limits, acceptsTruncatedFiles: acceptsTruncatedJPEG).decodeReduction(input, options: options)
    }

    public func rescale(_ reduction: Image, options: DecodingOptions) -> Image? {
        Rescaling.rescale(reduction, options: options)
    }

    /// What the input's header says: format, displayed size, orientation, alpha, frames.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        switch try detectFormat(of: InputReader.prefix(of: input)) {
        case .jpeg: try JPEGDecoder(limits: limits).info(input)
        case .png: try PNGDecoder(limits: limits).info(input)
        case .gif: try GIFDecoder(limits: limits).info(input)
        case .webp: try WebPDecoder(limits: limits).info(input)
        case .avif: try AVIFDecoder(limits: limits).info(input)
        case .heic: try HEICDecoder(limits: limits).info(input)
        case let format: throw .unsupportedFormat(format)
        }
    }

    /// `image` with its carried `ColorProfile` applied: pixels converted to sRGB and the
    /// profile dropped. An image without a profile, or with one Little CMS cannot use, comes
    /// back with the same pixels (and, for an unusable profile, a logged warning).
    public static func convertedToSRGB(_ image: Image) -> Image {
        guard let profile = image.colorProfile else { return image }
        var converted = ColorManagement.convertedToSRGB(image, profile: profile.data)
        converted.colorProfile = nil
        return converted
    }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        switch options.format {
        case .jpeg: try JPEGEncoder().encode(image, options: options)
        case .png: try PNGEncoder().encode(image, options: options)
        case .webp: try WebPEncoder().encode(image, options: options)
        case .avif: try AVIFEncoder().encode(image, options: options)
        default: throw .unsupportedFormat(options.format)
        }
    }
}
