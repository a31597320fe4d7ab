import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes the primary image of a HEIF/HEIC file with libheif (HEVC through libde265): grids
/// of tiles, alpha, its ICC profile or CICP colour, and its transforms.
///
/// libheif applies `irot`, `imir` and `clap` itself; an EXIF orientation in the file is
/// informative only (ISO/IEC 23008-12) and is ignored, as libheif, pillow-heif and libvips do.
/// libheif cannot decode at a reduced scale, so the image is decoded once to 8-bit RGB(A) and
/// reduced at once: memory holds that frame and the output. Image sequences decode as their
/// still primary image; HEIC is never encoded.
public struct HEICDecoder: ImageDecoding {
    /// The limits checked from the container before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .heic)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options), options: options)
    }

    /// `input` at ``DecodingOptions/outputSize(for:)``: covering the target for `fill`.
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        return try HEIFSession.with(try InputReader.allBytes(of: input)) { session throws(ImageDecodingError) in
            let size = session.size
            try limits.check(width: size.width, height: size.height)
            let sixteen = options.keepsHighBitDepth && session.bitDepth > 8
            let image = try session.decode(output: options.outputSize(for: size), limits: limits, sixteen: sixteen)
            return ColorManagement.apply(session.profile, to: image, handling: options.colorHandling)
        }
    }

    /// What the container says, without decoding.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try HEIFSession.with(try InputReader.allBytes(of: input)) { session throws(ImageDecodingError) in
            var info = ImageInfo(format: .heic, width: session.size.width, height: session.size.height, orientation: 1,
                                 hasAlpha: session.hasAlpha, frameCount: 1)
            info.bitDepth = session.bitDepth
            let profile = session.profile  // read once: it copies the ICC bytes or builds one from nclx
            info.describe(profile, pixelFormat: session.hasAlpha ? .rgba8 : .rgb8)
            if profile == nil, let cicp = session.cicp { info.colorProfile = cicp }
            if let hdr = session.hdr, let cicp = session.cicp {
                info.colorProfile = "\(cicp) (HDR \(hdr.transfer.name))"
                info.convertsToSRGB = true
            }
            return info
        }
    }
}
