import CCodecLoader
import CJXL
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes JPEG XL with libjxl: lossy at a quality or lossless, alpha kept, 16-bit stills in 16
/// bits (an HDR signal with its colour encoding), animations with their durations and loop
/// count, a carried profile embedded; and a JPEG recompressed
/// losslessly (``recompress(jpeg:)``), which `djxl` turns back into the same bytes.
///
/// Quality maps to libjxl's distance as `cjxl -q` maps it (0.9 is distance 1.0, visually
/// lossless). The effort is 3 of 1...9 by default: a thumbnail encodes in a few
/// milliseconds, with files a little larger than at `cjxl`'s default of 7.
public struct JXLEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .jxl, animation: true, alpha: true, lossless: true, quality: true, highBitDepth: true, hdr: true)] }

    /// libjxl's effort, 1 (fastest) to 9 (smallest).
    public var effort: Int

    /// Creates an encoder.
    public init(effort: Int = 3) { self.effort = effort }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .jxl else { throw .unsupportedFormat(options.format) }
        let frames = image.animation.map { $0.frames.map { ($0.image, Int($0.duration / .milliseconds(1))) } } ?? [(image, 0)]
        let alpha = frames.contains { $0.0.pixelFormat.hasAlpha }
        // A 16-bit still is written with 16-bit samples (an animation's frames are 8-bit).
        let sixteen = image.animation == nil && image.pixelFormat.isHighBitDepth
        let hdr = sixteen ? image.colorCodePoints : nil
        return try Self.session { encoder throws(ImageEncodingError) in
            var info = JxlBasicInfo()
            JxlEncoderInitBasicInfo(&info)
            info.xsize = UInt32(image.width)
            info.ysize = UInt32(image.height)
            info.bits_per_sample = sixteen ? 16 : 8
            info.num_color_channels = 3
            info.uses_original_profile = options.lossless ? 1 : 0
            // The light of the largest sample: PQ's 10,000 nits, HLG's 1,000-nit display.
            if let hdr { info.intensity_target = hdr.transfer == 16 ? 10_000 : 1_000 }
            if alpha {
                info.num_extra_channels = 1
                info.alpha_bits = sixteen ? 16 : 8
            }
            if let animation = image.animation, animation.frames.count > 1 {
                info.have_animation = 1
                info.animation.tps_numerator = 1000
                info.animation.tps_denominator = 1
                info.animation.num_loops = UInt32(max(0, animation.loopCount))
            }
            try Self.check(JxlEncoderSetBasicInfo(encoder, &info), encoder)
            if var encoding = hdr.map(Self.colorEncoding) {
                try Self.check(JxlEncoderSetColorEncoding(encoder, &encoding), encoder)
            } else if let profile = image.colorProfile {
                let bytes = [UInt8](profile.data)
                try Self.check(JxlEncoderSetICCProfile(encoder, bytes, bytes.count), encoder)
            } else {
                var sRGB = JxlColorEncoding()
                JxlColorEncodingSetToSRGB(&sRGB, 0)
                try Self.check(JxlEncoderSetColorEncoding(encoder, &sRGB), encoder)
            }
            guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else { throw .failed(.jxl, detail: "out of memory") }
            try Self.check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(max(1, min(9, effort)))), encoder)
            if options.lossless {
                try Self.check(JxlEncoderSetFrameLossless(settings, 1), encoder)
            } else {
                try Self.check(JxlEncoderSetFrameDistance(settings, Self.distance(quality: options.quality)), encoder)
            }
            for (frame, milliseconds) in frames {
                guard frame.size == image.size else { throw .failed(.jxl, detail: "animation frames differ in size") }
                if info.have_animation != 0 {
                    var header = JxlFrameHeader()
                    JxlEncoderInitFrameHeader(&header)
                    header.duration = UInt32(max(0, milliseconds))
                    try Self.check(JxlEncoderSetFrameHeader(settings, &header), encoder)
                }
                let source = PixelConversion.converted(frame, to: alpha ? (sixteen ? .rgba16 : .rgba8) : (sixteen ? .rgb16 : .rgb8))
                var format = JxlPixelFormat(num_channels: alpha ? 4 : 3, data_type: sixteen ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                            endianness: JXL_NATIVE_ENDIAN, align: source.bytesPerRow)
                let status = source.pixels.withUnsafeBytes { JxlEncoderAddImageFrame(settings, &format, $0.baseAddress, $0.count) }
                try Self.check(status, encoder)
            }
        }
    }

    /// libjxl's description of an HDR signal's code points: its transfer (libjxl shares H.273's
    /// numbers), the primaries named where libjxl names them, else as x, y.
    private static func colorEncoding(_ points: ColorCodePoints) -> JxlColorEncoding {
        var encoding = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&encoding, 0)
        encoding.transfer_function = JxlTransferFunction(rawValue: UInt32(points.transfer))
        encoding.white_point = points.primaries == 11 ? JXL_WHITE_POINT_DCI : JXL_WHITE_POINT_D65
        switch points.primaries {
        case 1: encoding.primaries = JXL_PRIMARIES_SRGB
        case 9: encoding.primaries = JXL_PRIMARIES_2100
        case 11, 12: encoding.primaries = JXL_PRIMARIES_P3
        default:
            let xy = points.chromaticities ?? ColorCodePoints.bt709
            encoding.primaries = JXL_PRIMARIES_CUSTOM
            encoding.primaries_red_xy = (xy[0].0, xy[0].1)
            encoding.primaries_green_xy = (xy[1].0, xy[1].1)
            encoding.primaries_blue_xy = (xy[2].0, xy[2].1)
        }
        return encoding
    }

    /// `jpeg` recompressed into JPEG XL without loss: its DCT coefficients are kept (about a
    /// fifth smaller), and the JPEG's own bytes can be reconstructed from the file.
    public func recompress(jpeg: Data) throws(ImageEncodingError) -> Data {
        guard FormatDetector.detect(jpeg) == .jpeg else { throw .failed(.jxl, detail: "the input is not a JPEG") }
        return try Self.session { encoder throws(ImageEncodingError) in
            try Self.check(JxlEncoderUseContainer(encoder, 1), encoder)
            try Self.check(JxlEncoderStoreJPEGMetadata(encoder, 1), encoder)
            guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else { throw .failed(.jxl, detail: "out of memory") }
            try Self.check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(max(1, min(9, effort)))), encoder)
            let status = jpeg.withUnsafeBytes { JxlEncoderAddJPEGFrame(settings, $0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
            try Self.check(status, encoder)
        }
    }

    /// libjxl's distance for a quality of 0...1, as `cjxl -q` computes it.
    static func distance(quality: Double) -> Float {
        let q = max(0, min(1, quality)) * 100
        return Float(q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000 * q * q - 23.0 / 20 * q + 25)
    }

    /// An encoder (with libjxl's thread pool where installed) that `add` fills; its output.
    private static func session(_ add: (OpaquePointer) throws(ImageEncodingError) -> Void) throws(ImageEncodingError) -> Data {
        guard osp_jxl_available() != 0 else {
            throw .failed(.jxl, detail: "libjxl cannot be loaded: \(String(cString: osp_jxl_load_error()))")
        }
        guard let encoder = JxlEncoderCreate(nil) else { throw .failed(.jxl, detail: "out of memory") }
        defer { JxlEncoderDestroy(encoder) }
        let pool = JXLThreadPool()
        if let runner = pool.runner { JxlEncoderSetParallelRunner(encoder, JxlResizableParallelRunner, runner) }
        try add(encoder)
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            var status = JXL_ENC_ERROR
            output.withUnsafeMutableBufferPointer { buffer in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                var available = buffer.count - written
                status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
            }
            if status == JXL_ENC_SUCCESS { break }
            guard status == JXL_ENC_NEED_MORE_OUTPUT else { try check(status, encoder); break }
            output.append(contentsOf: repeatElement(0, count: output.count))
        }
        return Data(output.prefix(written))
    }

    private static func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer) throws(ImageEncodingError) {
        guard status != JXL_ENC_SUCCESS else { return }
        throw .failed(.jxl, detail: "libjxl could not encode (error \(JxlEncoderGetError(encoder).rawValue))")
    }
}
