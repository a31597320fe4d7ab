import CAVIF
import CCodecLoader
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes AVIF with libavif and aom: 4:2:0, 8-bit (10-bit from a 16-bit image, an HDR signal
/// with its code points), alpha kept, a carried profile embedded; an animated `Image` as an AVIF
/// image sequence, every frame with its duration.
///
/// Quality maps to AV1's quantizer as libavif 1.x maps its own quality setting
/// (`(1 - quality) × 63`), so 0.8 is quantizer 13. The speed is aom's 8 of 0...10: a 640 px
/// thumbnail encodes in about a tenth of a second on one core (`Docs/BENCHMARKS.md`).
public struct AVIFEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .avif, animation: animates, alpha: true, lossless: true, quality: true, highBitDepth: true, hdr: true)] }

    /// aom's speed, 0 (slowest, smallest) to 10 (fastest).
    public var speed: Int
    /// Whether an animation is written as a sequence (the default), or as its first frame.
    public var animates: Bool

    /// Creates an encoder.
    public init(speed: Int = 8, animates: Bool = true) {
        self.speed = speed
        self.animates = animates
    }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .avif else { throw .unsupportedFormat(options.format) }
        guard osp_avif_available() != 0 else {
            throw .failed(.avif, detail: "libavif cannot be loaded: \(String(cString: osp_avif_load_error()))")
        }
        guard let encoder = avifEncoderCreate() else { throw .failed(.avif, detail: "out of memory") }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = Int32((max(0, min(1, 1 - options.quality)) * 63).rounded())
        encoder.pointee.codecChoice = AVIF_CODEC_CHOICE_AOM
        encoder.pointee.speed = Int32(speed)
        encoder.pointee.maxThreads = 2
        encoder.pointee.minQuantizer = options.lossless ? 0 : quantizer
        encoder.pointee.maxQuantizer = options.lossless ? 0 : quantizer
        encoder.pointee.minQuantizerAlpha = options.lossless ? 0 : quantizer
        encoder.pointee.maxQuantizerAlpha = options.lossless ? 0 : quantizer
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        if animates, let animation = image.animation, animation.frames.count > 1 {
            // An AVIF image sequence: every frame with its duration, in milliseconds.
            encoder.pointee.timescale = 1000
            for (index, frame) in animation.frames.enumerated() {
                guard frame.image.size == image.size else { throw .failed(.avif, detail: "animation frames differ in size") }
                try ImageEncodingError.checkCancellation()
                let picture = try Self.avifImage(frame.image, carrying: index == 0 ? image : nil, options: options)
                defer { avifImageDestroy(picture) }
                let milliseconds = max(1, UInt64(max(0, frame.duration / .milliseconds(1))))
                let added = avifEncoderAddImage(encoder, picture, milliseconds, UInt32(AVIF_ADD_IMAGE_FLAG_NONE.rawValue))
                guard added == AVIF_RESULT_OK else { throw .failed(.avif, detail: String(cString: avifResultToString(added))) }
            }
            let finished = avifEncoderFinish(encoder, &output)
            guard finished == AVIF_RESULT_OK else { throw .failed(.avif, detail: String(cString: avifResultToString(finished))) }
        } else {
            let picture = try Self.avifImage(image, carrying: image, options: options)
            defer { avifImageDestroy(picture) }
            let written = avifEncoderWrite(encoder, picture, &output)
            guard written == AVIF_RESULT_OK else { throw .failed(.avif, detail: String(cString: avifResultToString(written))) }
        }
        guard let bytes = output.data else { throw .failed(.avif, detail: "libavif wrote nothing") }
        return Data(bytes: bytes, count: output.size)
    }

    /// `frame` as libavif's YUV 4:2:0 image, sRGB; with the profile and metadata of `carrier`
    /// (the first frame's image, which holds them) when given.
    private static func avifImage(_ frame: Image, carrying carrier: Image?, options: EncodingOptions) throws(ImageEncodingError) -> UnsafeMutablePointer<avifImage> {
        let alpha = frame.pixelFormat.hasAlpha, sixteen = frame.pixelFormat.isHighBitDepth
        let source = PixelConversion.converted(frame, to: alpha ? (sixteen ? .rgba16 : .rgba8) : (sixteen ? .rgb16 : .rgb8))
        // AV1's main profile: 10 bits for a high-bit-depth image, as browsers decode it.
        guard let avif = avifImageCreate(UInt32(source.width), UInt32(source.height), sixteen ? 10 : 8, AVIF_PIXEL_FORMAT_YUV420) else {
            throw .failed(.avif, detail: "out of memory")
        }
        // sRGB: BT.709 primaries, sRGB transfer, BT.601 matrix, full range (what libavif's RGB
        // conversion assumes); an HDR signal's own code points, and BT.2020's matrix with its primaries.
        let hdr = sixteen ? (carrier ?? frame).colorCodePoints : nil
        avif.pointee.colorPrimaries = hdr.map { UInt16($0.primaries) } ?? UInt16(AVIF_COLOR_PRIMARIES_BT709)
        avif.pointee.transferCharacteristics = hdr.map { UInt16($0.transfer) } ?? UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        avif.pointee.matrixCoefficients = UInt16(hdr?.primaries == 9 ? AVIF_MATRIX_COEFFICIENTS_BT2020_NCL : AVIF_MATRIX_COEFFICIENTS_BT601)
        avif.pointee.yuvRange = AVIF_RANGE_FULL
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, avif)
        rgb.depth = sixteen ? 16 : 8
        rgb.format = alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
        rgb.rowBytes = UInt32(source.bytesPerRow)
        var pixels = source.pixels
        let converted = pixels.withUnsafeMutableBufferPointer { buffer in
            rgb.pixels = buffer.baseAddress
            return avifImageRGBToYUV(avif, &rgb)
        }
        guard converted == AVIF_RESULT_OK else {
            avifImageDestroy(avif)
            throw .failed(.avif, detail: String(cString: avifResultToString(converted)))
        }
        if let profile = carrier?.colorProfile {
            [UInt8](profile.data).withUnsafeBufferPointer { avifImageSetProfileICC(avif, $0.baseAddress, $0.count) }
        }
        if let metadata = carrier?.metadata?.kept(by: options.metadata) {
            if let exif = metadata.exif { [UInt8](exif).withUnsafeBufferPointer { avifImageSetMetadataExif(avif, $0.baseAddress, $0.count) } }
            if let xmp = metadata.xmp { [UInt8](xmp).withUnsafeBufferPointer { avifImageSetMetadataXMP(avif, $0.baseAddress, $0.count) } }
        }
        return avif
    }
}
