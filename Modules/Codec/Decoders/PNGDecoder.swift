import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes PNG with libpng, reducing rows as they arrive when a target size is given, so the
/// full image is never held (except for interlaced files, whose last pass needs every row).
///
/// Every colour type and bit depth decodes to 8-bit gray, RGB or RGBA: palettes and tRNS
/// are expanded, 16-bit samples are scaled with rounding, and no gamma correction is applied
/// (raw sample values). Gray with alpha becomes RGBA. Alpha is not premultiplied. With
/// ``DecodingOptions/keepsHighBitDepth``, a 16-bit file decodes to `gray16`, `rgb16` or
/// `rgba16` instead, read whole and resampled in floating point.
public struct PNGDecoder: ImageDecoding {
    /// The limits checked from the header.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .png)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options), options: options)
    }

    /// `input` at ``DecodingOptions/outputSize(for:)``: covering the target for `fill`.
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        if options.frames == .all, let animation = try decodeAnimation(input, options: options) { return animation }
        let hdr = try Self.hdrCodePoints(input)
        return try PNGSession.with(input) { session throws(ImageDecodingError) in
            // An HDR signal is read at 16 bits whatever is asked, to be kept or tone-mapped.
            let info = try session.readInfo(limits: limits, keepsHighBitDepth: options.keepsHighBitDepth || hdr != nil)
            let orientation = Orientation(exifValue: session.exifOrientation, applying: options)
            let stored = PixelSize(width: Int(info.width), height: Int(info.height))
            let output = orientation.storedOutputSize(for: stored, options: options)
            let profile = session.colorProfile
            var image = try session.decode(info, output: output)
            if let hdr, image.pixelFormat.channels >= 3 {
                // `cICP` rules over `iCCP` (PNG's third edition).
                image = PixelConversion.widened(image)
                image.colorCodePoints = hdr
                return orientation.applied(to: options.keepsHighBitDepth ? image : image.narrowedToEightBits)
            }
            if !options.keepsHighBitDepth { image = image.narrowedToEightBits }  // a gray cICP file read deep
            return ColorManagement.apply(profile, to: orientation.applied(to: image), handling: options.colorHandling)
        }
    }

    /// The code points of a `cICP` chunk before the image data that tells PQ or HLG, for RGB
    /// samples in full range; `nil` for any other file.
    static func hdrCodePoints(_ input: ImageInput) throws(ImageDecodingError) -> ColorCodePoints? {
        let bytes = [UInt8](try InputReader.prefix(of: input, count: 1 << 16))
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[at + 4..<at + 8]
            if type.elementsEqual("IDAT".utf8) { return nil }
            if type.elementsEqual("cICP".utf8), length == 4, at + 12 <= bytes.count, bytes[at + 10] == 0, bytes[at + 11] == 1 {
                let points = ColorCodePoints(primaries: Int(bytes[at + 8]), transfer: Int(bytes[at + 9]))
                return points.isHDR ? points : nil
            }
            guard length < bytes.count else { return nil }
            at += 12 + length
        }
        return nil
    }

    /// What the header says, without decoding pixels.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try PNGSession.with(input) { session throws(ImageDecodingError) in
            let info = try session.readHeader()
            let orientation = session.exifOrientation ?? 1
            let size = Orientation(exifValue: orientation).displayedSize(of: PixelSize(width: Int(info.width), height: Int(info.height)))
            var result = ImageInfo(format: .png, width: size.width, height: size.height, orientation: orientation,
                                   hasAlpha: info.has_alpha != 0, frameCount: 1)
            result.bitDepth = Int(info.bit_depth)
            if let structure = try Self.animationStructure(input) {
                result.frameCount = structure.frames.count
                result.loopCount = structure.plays
            }
            let gray = info.color_type & 2 == 0 && info.has_alpha == 0
            result.describe(session.colorProfile, pixelFormat: gray ? .gray8 : info.has_alpha != 0 ? .rgba8 : .rgb8)
            if let hdr = try Self.hdrCodePoints(input), !gray {
                result.colorProfile = CICPProfile.describe(primaries: hdr.primaries, transfer: hdr.transfer, matrix: 0)
                    + " (HDR \(hdr.transfer == 16 ? "PQ" : "HLG"))"
                result.convertsToSRGB = true
            }
            return result
        }
    }
}

extension PNGDecoder {
    /// Every frame of an APNG, or `nil` for a PNG that is not animated.
    private func decodeAnimation(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image? {
        guard try Self.declaresAnimation(input) else { return nil }
        return try PNGSession.with(input) { session throws(ImageDecodingError) in
            // The size first: the whole file is read for its chunks only within the limits.
            let header = try session.readHeader()
            try limits.check(width: Int(header.width), height: Int(header.height))
            guard let (decoder, structure) = try Self.animation(input) else { return nil }
            try limits.checkAnimation(canvas: structure.size, frames: structure.frames.count)
            return try decoder.decode(structure, output: options.outputSize(for: structure.size),
                                      profile: session.colorProfile, handling: options.colorHandling)
        }
    }

    static func animationStructure(_ input: ImageInput) throws(ImageDecodingError) -> APNGDecoder.Structure? {
        guard try declaresAnimation(input) else { return nil }
        return try animation(input)?.1
    }

    /// Whether an `acTL` chunk precedes the image data; it sits near the start, so only a
    /// prefix is read to tell.
    private static func declaresAnimation(_ input: ImageInput) throws(ImageDecodingError) -> Bool {
        let prefix = [UInt8](try InputReader.prefix(of: input, count: 1 << 18))
        guard let actl = prefix.firstRange(of: Array("acTL".utf8)) else { return false }
        return prefix.firstRange(of: Array("IDAT".utf8)).map { $0.lowerBound > actl.lowerBound } ?? true
    }

    /// The APNG reader over the whole file and its structure, or `nil` when it has no frames.
    private static func animation(_ input: ImageInput) throws(ImageDecodingError) -> (APNGDecoder, APNGDecoder.Structure)? {
        let decoder = APNGDecoder(bytes: [UInt8](try InputReader.allBytes(of: input)))
        guard let structure = decoder.structure(), !structure.frames.isEmpty else { return nil }
        return (decoder, structure)
    }
}
