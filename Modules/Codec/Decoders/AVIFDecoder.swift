import CAVIF
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes AVIF with libavif (AV1 through dav1d): 8-, 10- and 12-bit, every chroma
/// subsampling, alpha (straight, whether the file premultiplied it or not), and sequences.
///
/// libavif cannot decode at a reduced scale, so each frame is decoded once at full size and
/// converted to 8-bit RGB in strips of rows fed straight into a `Downsampler`: memory holds
/// the decoded frame and the output, never a full-size RGB copy. `clap` cropping is applied
/// while converting, then `irot` and `imir` turn the output upright, as EXIF orientation does
/// for JPEG. Colour from an ICC profile or from CICP code points goes through Little CMS.
/// A file libavif refuses to parse is read by libheif instead (as libvips reads AVIF), which
/// accepts some container quirks libavif does not.
public struct AVIFDecoder: ImageDecoding {
    /// The limits checked from the container before any frame is decoded.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .avif)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options), options: options)
    }

    /// `input` at ``DecodingOptions/outputSize(for:)``: covering the target for `fill`.
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        do {
            return try decode(data, options: options)
        } catch {
            guard Self.libavifCannotParse(error), let image = try? HEICDecoder(limits: limits).decode(.data(data), options: options) else { throw error }
            return image
        }
    }

    private func decode(_ data: Data, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try AVIFSession.with(data, limits: limits) { session throws(ImageDecodingError) in
            let header = session.header
            if options.frames == .all { try limits.checkAnimation(canvas: header.size, frames: header.frameCount) }
            let orientation = header.orientation
            let output = orientation.storedOutputSize(for: header.crop.size, options: options)
            if options.keepsHighBitDepth, options.frames != .all || header.frameCount == 1, header.depth > 8 {
                guard let still = try session.nextFrameSixteen(output: output) else { throw .corrupt(.avif, detail: "no frame") }
                return ColorManagement.apply(header.profile, to: orientation.applied(to: still), handling: options.colorHandling)
            }
            var assembler = AnimationAssembler(canvasSize: header.crop.size, outputSize: output)
            while options.frames == .all || assembler.frames.isEmpty, let (frame, milliseconds) = try session.nextFrame(output: output) {
                try ImageDecodingError.checkCancellation()
                assembler.add(frame, milliseconds: milliseconds)
            }
            guard !assembler.frames.isEmpty else { throw .corrupt(.avif, detail: "no frame") }
            let upright = assembler.finish(loopCount: 0).mappingFrames(orientation.applied)
            return ColorManagement.apply(header.profile, to: upright, handling: options.colorHandling)
        }
    }

    /// What the container says, without decoding a frame.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        do {
            return try info(data)
        } catch {
            guard Self.libavifCannotParse(error), var info = try? HEICDecoder(limits: limits).info(.data(data)) else { throw error }
            info.format = .avif
            return info
        }
    }

    /// Whether `error` is libavif refusing the container (not a limit, nor a damaged frame).
    private static func libavifCannotParse(_ error: ImageDecodingError) -> Bool {
        guard case .corrupt(_, let detail) = error else { return false }
        return detail.hasPrefix(String(cString: avifResultToString(AVIF_RESULT_BMFF_PARSE_FAILED)))
    }

    private func info(_ data: Data) throws(ImageDecodingError) -> ImageInfo {
        try AVIFSession.with(data, limits: DecodingLimits(maxPixels: .max)) { session throws(ImageDecodingError) in
            let header = session.header
            let size = header.orientation.displayedSize(of: header.crop.size)
            var info = ImageInfo(format: .avif, width: size.width, height: size.height, orientation: header.orientation.exifValue,
                                 hasAlpha: header.hasAlpha, frameCount: header.frameCount)
            info.bitDepth = header.depth
            if header.frameCount > 1 { info.loopCount = 0 }
            info.describe(header.profile, pixelFormat: header.hasAlpha ? .rgba8 : .rgb8)
            if header.profile == nil { info.colorProfile = header.cicp }
            if let hdr = header.hdr {
                info.colorProfile = "\(header.cicp) (HDR \(hdr.transfer.name))"
                info.convertsToSRGB = true
            }
            return info
        }
    }
}
