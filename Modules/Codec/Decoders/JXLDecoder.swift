import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes JPEG XL with libjxl: 8- to 16-bit and float samples, alpha, animation, the
/// codestream's orientation, and its colour.
///
/// Lossy (XYB) images are rendered to sRGB by libjxl itself, through its full colour
/// conversion; other images come out as stored and go through Little CMS with the profile
/// libjxl describes. PQ and HLG images are tone-mapped to SDR (`Docs/CODEC.md`, "HDR").
/// libjxl 0.7 decodes whole frames, so each frame is decoded once at full size and reduced
/// at once; the thread pool is libjxl's own (`libjxl_threads`) where it is installed.
public struct JXLDecoder: ImageDecoding {
    /// The limits checked from the headers before any frame is decoded.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .jxl)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let image = try JXLSession.with(try InputReader.allBytes(of: input), limits: limits) { session throws(ImageDecodingError) in
            let header = session.header
            let output = options.outputSize(for: header.size)
            if options.keepsHighBitDepth, !header.isAnimated, header.bitDepth > 8, header.hdr == nil || header.hdrCodePoints != nil {
                guard let (still, _) = try session.nextFrame(output: output, sixteen: true) else { throw .corrupt(.jxl, detail: "no frame") }
                return ColorManagement.apply(header.profile, to: still, handling: options.colorHandling)
            }
            var assembler = AnimationAssembler(canvasSize: header.size, outputSize: output)
            while options.frames == .all || assembler.frames.isEmpty, let (frame, milliseconds) = try session.nextFrame(output: output) {
                try ImageDecodingError.checkCancellation()
                if options.frames == .all { try limits.checkAnimation(canvas: header.size, frames: assembler.frames.count + 1) }
                assembler.add(frame, milliseconds: milliseconds)
            }
            guard !assembler.frames.isEmpty else { throw .corrupt(.jxl, detail: "no frame") }
            return ColorManagement.apply(header.profile, to: assembler.finish(loopCount: header.loopCount), handling: options.colorHandling)
        }
        return FillCrop.apply(image, options: options)
    }

    /// What the headers say, without decoding a frame.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        return try JXLSession.with(data, limits: DecodingLimits(maxPixels: .max), decodesPixels: false) { session throws(ImageDecodingError) in
            let header = session.header
            var frames = 0
            while header.isAnimated, try session.skipFrame() { frames += 1 }
            var info = ImageInfo(format: .jxl, width: header.size.width, height: header.size.height, orientation: header.orientation,
                                 hasAlpha: header.hasAlpha, frameCount: max(frames, 1))
            info.bitDepth = header.bitDepth
            if header.isAnimated { info.loopCount = header.loopCount }
            info.describe(header.profile, pixelFormat: header.hasAlpha ? .rgba8 : (header.isGray ? .gray8 : .rgb8))
            if header.profile == nil { info.colorProfile = header.colorDescription }
            if header.hdr != nil { info.convertsToSRGB = true }
            return info
        }
    }
}
