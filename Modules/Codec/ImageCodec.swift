import Foundation
import OspreyDomain
import OspreyPixels

/// The default codec: a decoder registry and an encoder registry behind one `ImageDecoding`
/// and `ImageEncoding`. Built in, it decodes JPEG, PNG (and APNG), GIF, WebP, AVIF, HEIC,
/// JPEG XL, TIFF, BMP, ICO and SVG and encodes JPEG, PNG, WebP, GIF, TIFF, BMP, ICO, AVIF,
/// JPEG XL and HEIC; decoders and encoders of your own are added with `register(_:)`: a decoder is
/// asked before the built-in ones, an encoder writes the formats its capabilities declare.
///
/// A decoder is chosen by the input's first bytes, never by file extension or Content-Type:
/// each decoder in ``decoders`` is asked in turn (`ImageDecoding/detectFormat(of:)`), those
/// registered first, and the first that recognises the bytes decodes them.
///
/// ```swift
/// let codec = ImageCodec()
/// let thumbnail = try codec.decode(.file(path: "photo.jpg"),
///                                  options: DecodingOptions(targetSize: PixelSize(width: 640, height: 640)))
/// let jpeg = try codec.encode(thumbnail, options: EncodingOptions(format: .jpeg, quality: 0.8))
/// ```
///
/// See <doc:AddingADecoder> for a format of your own, through the pipeline.
public struct ImageCodec: ImageDecoding, ImageEncoding {
    /// The limits checked before decoding.
    public let limits: DecodingLimits
    /// Whether JPEG files that end early decode partially (see ``JPEGDecoder/acceptsTruncatedFiles``).
    public let acceptsTruncatedJPEG: Bool
    /// The decoders inputs are offered to, those registered first.
    public private(set) var decoderRegistry: ImageDecoderRegistry
    /// The encoder of each format.
    public private(set) var encoderRegistry: ImageEncoderRegistry

    /// Creates a codec with the given limits and the built-in decoders and encoders.
    public init(limits: DecodingLimits = .default, acceptsTruncatedJPEG: Bool = false) {
        self.limits = limits
        self.acceptsTruncatedJPEG = acceptsTruncatedJPEG
        decoderRegistry = ImageDecoderRegistry([
            JPEGDecoder(limits: limits, acceptsTruncatedFiles: acceptsTruncatedJPEG), PNGDecoder(limits: limits),
            GIFDecoder(limits: limits), WebPDecoder(limits: limits), AVIFDecoder(limits: limits), HEICDecoder(limits: limits),
            JXLDecoder(limits: limits), TIFFDecoder(limits: limits), BMPDecoder(limits: limits), ICODecoder(limits: limits),
            SVGDecoder(limits: limits),
        ])
        encoderRegistry = ImageEncoderRegistry([JPEGEncoder(), PNGEncoder(), WebPEncoder(), GIFEncoder(), TIFFEncoder(), BMPEncoder(), ICOEncoder(), AVIFEncoder(), JXLEncoder(),
                                                HEICEncoder()])
    }

    /// Asks `decoder` first: it decodes the inputs its `detectFormat(of:)` recognises, a
    /// built-in format's too.
    public mutating func register(_ decoder: any ImageDecoding) {
        decoderRegistry.register(decoder)
    }

    /// Makes `encoder` the encoder of every format its capabilities declare.
    public mutating func register(_ encoder: any ImageEncoding) {
        encoderRegistry.register(encoder)
    }

    /// Every decoder in the order inputs are offered to them.
    public var decoders: [any ImageDecoding] { decoderRegistry.decoders }

    /// The encoder of each format.
    public var encoders: [ImageFormat: any ImageEncoding] { encoderRegistry.encoders }

    /// What each format's encoder can carry.
    public var capabilities: [EncoderCapabilities] { encoderRegistry.capabilities }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try decoder(for: prefix).format
    }

    func decoder(for prefix: Data) throws(ImageDecodingError) -> (decoder: any ImageDecoding, format: ImageFormat) {
        try decoderRegistry.decoder(for: prefix)
    }

    /// Decodes `input` at the options' target size: inside it for `fit`, exactly it for `fill`
    /// (the covering size with its centre cropped), never larger than the original.
    /// The file's EXIF, XMP and IPTC come with the image (``Image/metadata``), for an encoder
    /// asked to write them again.
    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        let (decoder, format) = try decoder(for: InputReader.prefix(of: input))
        return Self.attachingMetadata(try decoder.decode(input, options: options), of: input, format: format, options: options)
    }

    /// The chosen decoder's reduced decode (a JPEG's DCT-scaled one), kept by the pipeline to
    /// make later sizes from; `nil` for formats without a cheaper reduced decode.
    public func decodeReduction(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        let (decoder, format) = try decoder(for: InputReader.prefix(of: input))
        return try decoder.decodeReduction(input, options: options).map { Self.attachingMetadata($0, of: input, format: format, options: options) }
    }

    /// The chosen decoder's approximate decode for a placeholder (a JPEG's embedded thumbnail
    /// or first progressive scans), without metadata; `nil` when it has none.
    public func decodePreview(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        try decoder(for: InputReader.prefix(of: input)).decoder.decodePreview(input, options: options)
    }

    /// The EXIF, XMP and IPTC blocks of `input` as stored (the orientation as written), read
    /// from the container without decoding; `nil` when it has none or its format keeps none
    /// that Osprey reads (JPEG, PNG and WebP do).
    public func metadata(_ input: ImageInput) throws(ImageDecodingError) -> ImageMetadata? {
        MetadataReader.metadata(of: input, format: try decoder(for: InputReader.prefix(of: input)).format)
    }

    /// `image` with the metadata of `input`; the EXIF orientation set to 1 where the decoder
    /// turned the pixels upright, so the block describes the pixels as they are.
    static func attachingMetadata(_ image: Image, of input: ImageInput, format: ImageFormat, options: DecodingOptions) -> Image {
        guard image.metadata == nil, var metadata = MetadataReader.metadata(of: input, format: format) else { return image }
        if options.appliesOrientation, let exif = metadata.exif { metadata.exif = ExifEditor.settingOrientation(exif, to: 1) }
        var image = image
        image.metadata = metadata
        return image
    }

    public func rescale(_ reduction: Image, options: DecodingOptions) -> Image? {
        Rescaling.rescale(reduction, options: options)
    }

    /// The full size from the header, turned upright when `options` apply the orientation;
    /// `nil` for a decoder that does not read headers.
    public func sourceSize(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> PixelSize? {
        guard let reader = try decoder(for: InputReader.prefix(of: input)).decoder as? any ImageInfoReading else { return nil }
        let info = try reader.info(input)
        let displayed = PixelSize(width: info.width, height: info.height)
        // Turning the displayed size by the orientation again gives the stored one.
        return options.appliesOrientation ? displayed : Orientation(exifValue: info.orientation).displayedSize(of: displayed)
    }

    /// What decoding `input` for `options` holds, from the header: the chosen decoder's own
    /// estimate, else every frame the options ask for at the header's size, with the buffers
    /// the format's library is known to hold (``decoderBytesPerPixel``); `nil` for a decoder
    /// that does not read headers.
    public func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate? {
        let (decoder, format) = try decoder(for: InputReader.prefix(of: input))
        if let estimate = try decoder.decodeEstimate(of: input, options: options) { return estimate }
        guard let reader = decoder as? any ImageInfoReading else { return nil }
        let info = try reader.info(input)
        let size = PixelSize(width: info.width, height: info.height)
        let deep = (info.bitDepth ?? 8) > 8
        let perPixel = Self.decoderBytesPerPixel[format].map { deep ? $0.deep : $0.eight } ?? 0
        return DecodeEstimate(size: size, frames: options.frames == .all ? max(1, info.frameCount) : 1,
                              bytesPerPixel: info.hasAlpha ? 4 : 3, workingBytes: size.byteCount(bytesPerPixel: perPixel))
    }

    /// Bytes a source pixel costs inside the decoding library, at 8 bits and deeper: libheif's
    /// and libavif's YUV planes and RGB conversion, libjxl's floating-point buffers (measured
    /// with a process's peak RSS; Docs/SERVER.md).
    static let decoderBytesPerPixel: [ImageFormat: (eight: Int, deep: Int)] = [.heic: (3, 8), .avif: (3, 8), .jxl: (8, 12)]

    /// What the input's header says: format, displayed size, orientation, alpha, frames. A
    /// decoder that does not read headers (``ImageInfoReading``) decodes the input to say it.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        let (decoder, format) = try decoder(for: InputReader.prefix(of: input))
        if let reader = decoder as? any ImageInfoReading { return try reader.info(input) }
        let image = try decoder.decode(input, options: DecodingOptions())
        return ImageInfo(format: format, width: image.width, height: image.height, orientation: 1,
                         hasAlpha: image.pixelFormat.hasAlpha, frameCount: image.animation?.frames.count ?? 1)
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

    /// The image's size, and for AVIF and HEIC the encoder's own state (libaom's and x265's
    /// look-ahead and buffers: about 45 MB for any photo, measured with the process's peak RSS).
    public func encodeEstimate(of image: Image, as format: ImageFormat) -> Int {
        let fixed = [ImageFormat.avif, .heic].contains(format) ? 48_000_000 : 0
        return image.cost + fixed
    }

    /// A 16-bit image is narrowed to 8 bits for a format whose encoder writes no more, and an
    /// HDR one tone-mapped for a format that cannot state its code points.
    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard let encoder = encoders[options.format] else { throw .unsupportedFormat(options.format) }
        let keepsDepth = encoder.capabilities(for: options.format)?.keepsDepth(of: image) ?? false
        return try encoder.encode(keepsDepth ? image : image.narrowedToEightBits, options: options)
    }
}
