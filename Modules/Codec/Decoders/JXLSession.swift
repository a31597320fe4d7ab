import CCodecLoader
import CJXL
import Foundation
import OspreyDomain
import OspreyPixels

/// One libjxl decoder (and its thread pool) over bytes in memory, driven event by event;
/// ``with(_:limits:_:)`` destroys both when the work is done, whichever way it ends.
struct JXLSession: ~Copyable {
    /// What the codestream's headers say, read before any frame is decoded.
    struct Header {
        var size: PixelSize          // as displayed: libjxl applies the orientation itself
        var orientation: Int
        var bitDepth: Int
        var hasAlpha: Bool
        var isGray: Bool
        var isAnimated: Bool
        var loopCount: Int
        var ticksPerSecond: Double
        /// The colour of the samples libjxl hands out.
        var profile: ColorProfile?
        /// PQ or HLG samples, mapped to SDR by ``HDRToneMapping`` rather than by a profile.
        var hdr: (transfer: HDRToneMapping.Transfer, primaries: [(Double, Double)])?
        /// The code points of PQ or HLG samples with named primaries, which an image can keep.
        var hdrCodePoints: ColorCodePoints?
        var colorDescription: String?
    }

    private let decoder: OpaquePointer
    let header: Header

    private init(decoder: OpaquePointer, header: Header) {
        self.decoder = decoder
        self.header = header
    }

    /// Runs `body` with a session on `data` once its headers are read and within `limits`.
    /// With `decodesPixels` false, frames are only counted (``skipFrame()``).
    static func with<T>(_ data: Data, limits: DecodingLimits, decodesPixels: Bool = true, _ body: (inout Self) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        guard osp_jxl_available() != 0 else {
            throw .unsupportedFormat(.jxl, detail: "libjxl cannot be loaded: \(String(cString: osp_jxl_load_error()))")
        }
        let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return .failure(.corrupt(.jxl, detail: "empty input")) }
            guard let decoder = JxlDecoderCreate(nil) else { return .failure(.corrupt(.jxl, detail: "out of memory")) }
            defer { JxlDecoderDestroy(decoder) }
            let pool = JXLThreadPool()
            if let runner = pool.runner { JxlDecoderSetParallelRunner(decoder, JxlResizableParallelRunner, runner) }
            let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue
                               | (decodesPixels ? JXL_DEC_FULL_IMAGE.rawValue : 0))
            JxlDecoderSubscribeEvents(decoder, events)
            JxlDecoderSetUnpremultiplyAlpha(decoder, 1)
            JxlDecoderSetInput(decoder, base.assumingMemoryBound(to: UInt8.self), raw.count)
            JxlDecoderCloseInput(decoder)
            do throws(ImageDecodingError) {
                var session = Self(decoder: decoder, header: try readHeader(decoder, limits: limits))
                return .success(try body(&session))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func readHeader(_ decoder: OpaquePointer, limits: DecodingLimits) throws(ImageDecodingError) -> Header {
        var info = JxlBasicInfo()
        try expect(JXL_DEC_BASIC_INFO, decoder)
        guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { throw .corrupt(.jxl, detail: "unreadable header") }
        try limits.check(width: Int(info.xsize), height: Int(info.ysize))
        let swapped = info.orientation.rawValue > 4
        var header = Header(
            size: PixelSize(width: Int(swapped ? info.ysize : info.xsize), height: Int(swapped ? info.xsize : info.ysize)),
            orientation: Int(info.orientation.rawValue), bitDepth: Int(info.bits_per_sample), hasAlpha: info.alpha_bits > 0,
            isGray: info.num_color_channels == 1, isAnimated: info.have_animation != 0, loopCount: Int(info.animation.num_loops),
            ticksPerSecond: info.animation.tps_denominator > 0 ? Double(info.animation.tps_numerator) / Double(info.animation.tps_denominator) : 0,
            profile: nil, hdr: nil, hdrCodePoints: nil, colorDescription: nil)
        try expect(JXL_DEC_COLOR_ENCODING, decoder)
        var original = JxlColorEncoding()
        let described = JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) == JXL_DEC_SUCCESS
        if described, let transfer = HDRToneMapping.Transfer(rawValue: Int(original.transfer_function.rawValue)), !header.isGray {
            // HDR samples come out in their own space, to be tone-mapped rather than clipped.
            header.hdr = (transfer, primaries(of: original))
            header.hdrCodePoints = codePoint(of: original).map { ColorCodePoints(primaries: $0, transfer: transfer.rawValue) }
            header.colorDescription = "HDR \(transfer.name)"
            return header
        }
        // An XYB image (most lossy files) is rendered by libjxl into sRGB directly, through its
        // own full conversion; other images come out as stored, with their profile.
        var sRGB = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&sRGB, header.isGray ? 1 : 0)
        JxlDecoderSetPreferredColorProfile(decoder, &sRGB)
        var data = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &data) == JXL_DEC_SUCCESS, isSRGB(data) {
            return header
        }
        var length = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &length) == JXL_DEC_SUCCESS, length > 0 else { return header }
        var bytes = [UInt8](repeating: 0, count: length)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &bytes, length) == JXL_DEC_SUCCESS else { return header }
        header.profile = ColorProfile(data: Data(bytes))
        return header
    }

    private static func isSRGB(_ encoding: JxlColorEncoding) -> Bool {
        encoding.white_point == JXL_WHITE_POINT_D65 && encoding.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
            && (encoding.color_space == JXL_COLOR_SPACE_GRAY || encoding.primaries == JXL_PRIMARIES_SRGB)
    }

    /// libjxl's named primaries share H.273's code points (sRGB 1, BT.2100 9, P3 11); custom
    /// ones come as x, y.
    private static func primaries(of encoding: JxlColorEncoding) -> [(Double, Double)] {
        if encoding.primaries != JXL_PRIMARIES_CUSTOM, let named = ColorCodePoints.chromaticities(Int(encoding.primaries.rawValue)) { return named }
        return [encoding.primaries_red_xy, encoding.primaries_green_xy, encoding.primaries_blue_xy].map { ($0.0, $0.1) }
    }

    /// H.273's primaries for libjxl's named ones (P3 is 11 with DCI's white, 12 with D65's), or
    /// `nil` for custom ones.
    private static func codePoint(of encoding: JxlColorEncoding) -> Int? {
        guard encoding.primaries != JXL_PRIMARIES_CUSTOM, encoding.white_point != JXL_WHITE_POINT_CUSTOM else { return nil }
        guard encoding.primaries == JXL_PRIMARIES_P3 else { return Int(encoding.primaries.rawValue) }
        return encoding.white_point == JXL_WHITE_POINT_DCI ? 11 : 12
    }

    /// The next frame at `output` (as displayed) and its duration in milliseconds, or `nil`
    /// after the last one.
    /// With `sixteen` (a file of more than 8 bits, HDR only with ``Header/hdrCodePoints``), the
    /// samples stay 16-bit, an HDR signal as it is.
    mutating func nextFrame(output: PixelSize, sixteen: Bool = false) throws(ImageDecodingError) -> (Image, Int)? {
        var status = JxlDecoderProcessInput(decoder)
        if status == JXL_DEC_SUCCESS { return nil }
        guard status == JXL_DEC_FRAME else { throw Self.failure(status, expected: "a frame") }
        var frame = JxlFrameHeader()
        JxlDecoderGetFrameHeader(decoder, &frame)
        let milliseconds = header.ticksPerSecond > 0 ? AnimationAssembler.milliseconds(seconds: Double(frame.duration) / header.ticksPerSecond) : 0
        let hdr = header.hdr
        let channels = header.isGray && !header.hasAlpha ? 1 : (header.hasAlpha ? 4 : 3)
        let wide = hdr != nil || sixteen
        var format = JxlPixelFormat(num_channels: UInt32(channels), data_type: wide ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                    endianness: JXL_NATIVE_ENDIAN, align: 0)
        status = JxlDecoderProcessInput(decoder)
        guard status == JXL_DEC_NEED_IMAGE_OUT_BUFFER else { throw Self.failure(status, expected: "pixels") }
        var length = 0
        guard JxlDecoderImageOutBufferSize(decoder, &format, &length) == JXL_DEC_SUCCESS,
              length == header.size.byteCount(bytesPerPixel: channels * (wide ? 2 : 1)) else {
            throw .corrupt(.jxl, detail: "a frame does not match the image's size")
        }
        if sixteen {
            var samples = [UInt8](repeating: 0, count: length)
            try decodePixels(into: &samples, format: &format)
            let deep: PixelFormat = channels == 1 ? .gray16 : (channels == 4 ? .rgba16 : .rgb16)
            let image = try! Image(width: header.size.width, height: header.size.height, pixelFormat: deep, pixels: samples)
            var resized = Resampler.resize(image, to: output)
            resized.colorCodePoints = header.hdrCodePoints
            return (resized, milliseconds)
        }
        let pixelFormat: PixelFormat = channels == 1 ? .gray8 : (channels == 4 ? .rgba8 : .rgb8)
        var sink = Downsampler(sourceSize: header.size, outputSize: output, pixelFormat: pixelFormat)
        if let hdr {
            var samples = [UInt16](repeating: 0, count: length / 2)
            try decodePixels(into: &samples, format: &format)
            var mapped = [UInt8](repeating: 0, count: samples.count)
            samples.withUnsafeBufferPointer { source in
                mapped.withUnsafeMutableBufferPointer { target in
                    HDRToneMapping.map(source, channels: channels, bits: 16, transfer: hdr.transfer, primaries: hdr.primaries, into: target)
                }
            }
            mapped.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: header.size.height, stride: header.size.width * channels) }
        } else {
            var pixels = [UInt8](repeating: 0, count: length)
            try decodePixels(into: &pixels, format: &format)
            pixels.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: header.size.height, stride: header.size.width * channels) }
        }
        return (sink.finish(), milliseconds)
    }

    /// Passes over the next frame's header: `false` after the last one.
    func skipFrame() throws(ImageDecodingError) -> Bool {
        let status = JxlDecoderProcessInput(decoder)
        if status == JXL_DEC_SUCCESS { return false }
        guard status == JXL_DEC_FRAME else { throw Self.failure(status, expected: "a frame") }
        return true
    }

    /// Decodes the current frame into `samples`, which stay pinned until libjxl is done.
    private func decodePixels<Sample>(into samples: inout [Sample], format: inout JxlPixelFormat) throws(ImageDecodingError) {
        let status = samples.withUnsafeMutableBytes { buffer in
            guard JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS else { return JXL_DEC_ERROR }
            return JxlDecoderProcessInput(decoder)
        }
        guard status == JXL_DEC_FULL_IMAGE else { throw Self.failure(status, expected: "the frame's pixels") }
    }

    /// Advances to `event`, or throws why the stream stopped before it.
    private static func expect(_ event: JxlDecoderStatus, _ decoder: OpaquePointer) throws(ImageDecodingError) {
        let status = JxlDecoderProcessInput(decoder)
        guard status == event else { throw failure(status, expected: "the header") }
    }

    private static func failure(_ status: JxlDecoderStatus, expected: String) -> ImageDecodingError {
        switch status {
        case JXL_DEC_NEED_MORE_INPUT: .corrupt(.jxl, detail: "the data ends before \(expected)")
        case JXL_DEC_ERROR: .corrupt(.jxl, detail: "libjxl could not decode \(expected)")
        default: .corrupt(.jxl, detail: "unexpected decoder event \(status.rawValue) before \(expected)")
        }
    }
}
