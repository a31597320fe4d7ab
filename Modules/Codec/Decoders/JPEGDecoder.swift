import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes JPEG with libjpeg-turbo at the size that will be shown.
///
/// The DCT scales the image by 1/2, 1/4 or 1/8 while decoding; the decoder picks the
/// smallest scale not below the target, reads scanline by scanline into a `Downsampler`,
/// which resamples to the exact size, then turns the result upright from its EXIF
/// orientation. Baseline, progressive, arithmetic, grayscale and CMYK/YCCK files decode;
/// 12-bit and lossless files are refused as unsupported (libjpeg-turbo 2.1 cannot read them).
public struct JPEGDecoder: ImageDecoding {
    /// The limits checked from the header.
    public var limits: DecodingLimits
    /// When `true`, a file that ends early decodes with its missing rows grey, as libjpeg and
    /// browsers show it. By default it is refused as corrupt, so no cache keeps half an image.
    public var acceptsTruncatedFiles: Bool

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default, acceptsTruncatedFiles: Bool = false) {
        self.limits = limits
        self.acceptsTruncatedFiles = acceptsTruncatedFiles
    }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .jpeg)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options, resamples: true)!, options: options)
    }

    /// The DCT-scaled decode at the smallest scale that still covers `options`, not
    /// resampled; `nil` when that scale is 1, where a reduction would be the whole image.
    public func decodeReduction(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        guard options.targetSize != nil else { return nil }
        return try decodeScaled(input, options: options, resamples: false)
    }

    public func rescale(_ reduction: Image, options: DecodingOptions) -> Image? {
        Rescaling.rescale(reduction, options: options)
    }

    /// For a placeholder: the camera's EXIF thumbnail when it has the image's shape and is
    /// large enough, else a progressive file's first scans at 1/8 when that is large enough;
    /// `nil` otherwise (a baseline file's every coefficient must be decoded whatever the scale).
    public func decodePreview(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        guard options.targetSize != nil else { return nil }
        try InputReader.checkLength(of: input, limits: limits)
        let preview = try JPEGSession.with(input) { session throws(ImageDecodingError) -> Image? in
            let header = try session.readHeader(limits: limits)
            guard header.is_cmyk == 0 else { return nil }
            let orientation = Orientation(exifValue: session.exifOrientation, applying: options)
            let stored = PixelSize(width: Int(header.width), height: Int(header.height))
            let output = orientation.storedOutputSize(for: stored, options: options)
            let image: Image
            if let thumbnail = session.exifThumbnail, let decoded = (try? Self.thumbnail(thumbnail, of: stored, output: output)) ?? nil {
                image = decoded
            } else if Self.scaleDenominator(from: stored, to: output) == 8, let decoded = try session.decodeFirstScans(output: output) {
                image = decoded
            } else {
                return nil
            }
            return ColorManagement.apply(session.colorProfile, to: orientation.applied(to: image), handling: options.colorHandling)
        }
        return preview.map { FillCrop.apply($0, options: options) }
    }

    /// `thumbnail` resampled to `output` when its shape is the image's (within 2 %: some
    /// cameras letterbox a 3:2 photo into 160×120) and it is at least `output`. A broken
    /// thumbnail throws; the caller then decodes the image.
    private static func thumbnail(_ thumbnail: Data, of stored: PixelSize, output: PixelSize) throws(ImageDecodingError) -> Image? {
        try JPEGSession.with(.data(thumbnail)) { session throws(ImageDecodingError) -> Image? in
            let header = try session.readHeader(limits: DecodingLimits(maxPixels: 1 << 20, maxInputBytes: .max))
            let size = PixelSize(width: Int(header.width), height: Int(header.height))
            let skew = abs(size.width * stored.height - size.height * stored.width)
            guard header.is_cmyk == 0, size.width >= output.width, size.height >= output.height,
                  skew * 50 <= size.width * stored.height else { return nil }
            return try session.decode(scaleDenominator: Self.scaleDenominator(from: size, to: output), output: output,
                                      cmyk: false, inverted: false, transform: nil)
        }
    }

    /// `input` at ``DecodingOptions/outputSize(for:)`` (covering the target for `fill`), or
    /// unless `resamples`, at the DCT scale chosen for it (`nil` when that is 1).
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions, resamples: Bool) throws(ImageDecodingError) -> Image? {
        try InputReader.checkLength(of: input, limits: limits)
        return try JPEGSession.with(input) { session throws(ImageDecodingError) in
            session.acceptTruncation(acceptsTruncatedFiles)
            let header = try session.readHeader(limits: limits)
            let orientation = Orientation(exifValue: session.exifOrientation, applying: options)
            let stored = PixelSize(width: Int(header.width), height: Int(header.height))
            let output = orientation.storedOutputSize(for: stored, options: options)
            let profile = session.colorProfile
            let cmyk = header.is_cmyk != 0, inverted = header.adobe_inverted != 0
            // CMYK goes through its profile while rows arrive (the result is RGB); then the
            // profile has done its work and is neither applied again nor carried.
            let cmykTransform = cmyk ? profile.flatMap { ColorManagement.Transform(cmykProfile: $0.data, inverted: inverted) } : nil
            let denominator = Self.scaleDenominator(from: stored, to: output)
            if !resamples, denominator == 1 { return nil }
            let image = try session.decode(scaleDenominator: denominator, output: resamples ? output : nil,
                                           cmyk: cmyk, inverted: inverted, transform: cmykTransform)
            return ColorManagement.apply(cmyk ? nil : profile, to: orientation.applied(to: image), handling: options.colorHandling)
        }
    }

    /// The size decoded for `options` (the DCT scale for its target) and, for a progressive
    /// file, the coefficients libjpeg holds for the whole image while it decodes.
    public func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate? {
        try InputReader.checkLength(of: input, limits: limits)
        return try JPEGSession.with(input) { session throws(ImageDecodingError) in
            let header = try session.readHeader(limits: DecodingLimits(maxPixels: .max, maxInputBytes: .max))
            let stored = PixelSize(width: Int(header.width), height: Int(header.height))
            var size = stored
            if options.targetSize != nil {
                let orientation = Orientation(exifValue: session.exifOrientation, applying: options)
                let denominator = Int(Self.scaleDenominator(from: stored, to: orientation.storedOutputSize(for: stored, options: options)))
                size = PixelSize(width: (stored.width + denominator - 1) / denominator, height: (stored.height + denominator - 1) / denominator)
            }
            return DecodeEstimate(size: size, frames: 1, bytesPerPixel: header.components == 1 ? 1 : 3,
                                  workingBytes: Int(header.coefficient_bytes))
        }
    }

    /// What the header says, without decoding pixels.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try JPEGSession.with(input) { session throws(ImageDecodingError) in
            let header = try session.readHeader(limits: DecodingLimits(maxPixels: .max, maxInputBytes: .max))
            let orientation = session.exifOrientation ?? 1
            let size = Orientation(exifValue: orientation).displayedSize(of: PixelSize(width: Int(header.width), height: Int(header.height)))
            var info = ImageInfo(format: .jpeg, width: size.width, height: size.height, orientation: orientation, hasAlpha: false, frameCount: 1)
            info.describe(session.colorProfile, pixelFormat: header.is_cmyk != 0 ? nil : header.components == 1 ? .gray8 : .rgb8,
                          cmykInverted: header.adobe_inverted != 0)
            return info
        }
    }

    /// The largest DCT scale denominator (8, 4, 2 or 1) that still decodes at least `output`.
    static func scaleDenominator(from stored: PixelSize, to output: PixelSize) -> UInt32 {
        for denominator in [8, 4, 2] {
            let scaled = PixelSize(width: (stored.width + denominator - 1) / denominator, height: (stored.height + denominator - 1) / denominator)
            if scaled.width >= output.width && scaled.height >= output.height { return UInt32(denominator) }
        }
        return 1
    }
}
