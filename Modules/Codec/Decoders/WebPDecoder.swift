import CWebP
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes WebP with libwebp: lossy, lossless and alpha files through libwebp's own scaled
/// decoding (with its threaded filtering); animated files by their first frame, or every
/// frame through `WebPAnimDecoder` when `DecodingOptions.frames` asks for all.
///
/// libwebp needs the whole file in memory, so a file input is read whole (within the byte
/// limit). EXIF orientation in an extended file's `EXIF` chunk is applied.
public struct WebPDecoder: ImageDecoding {
    /// The limits checked from the header.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .webp)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options), options: options)
    }

    /// `input` at `DecodingOptions.outputSize(for:)`: covering the target for `fill`.
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        let features = try Self.features(of: data, limits: limits)
        let orientation = Orientation(exifValue: Self.exifOrientation(in: data), applying: options)
        let stored = PixelSize(width: Int(features.width), height: Int(features.height))
        let output = orientation.storedOutputSize(for: stored, options: options)
        let image = features.has_animation != 0
            ? try Self.decodeFrames(data, stored: stored, output: output, frames: options.frames, limits: limits)
            : try Self.decodeStill(data, stored: stored, output: output, alpha: features.has_alpha != 0)
        let profile = Self.colorProfile(in: data)
        return ColorManagement.apply(profile, to: image.mappingFrames(orientation.applied), handling: options.colorHandling)
    }

    /// What the header says, without decoding pixels.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        let features = try Self.features(of: data, limits: DecodingLimits(maxPixels: .max, maxInputBytes: .max))
        let orientation = Self.exifOrientation(in: data) ?? 1
        let size = Orientation(exifValue: orientation).displayedSize(of: PixelSize(width: Int(features.width), height: Int(features.height)))
        var info = ImageInfo(format: .webp, width: size.width, height: size.height, orientation: orientation,
                             hasAlpha: features.has_alpha != 0, frameCount: features.has_animation != 0 ? Self.frameCount(data) : 1)
        if features.has_animation != 0 { info.loopCount = Self.loopCount(data) }
        info.describe(Self.colorProfile(in: data), pixelFormat: features.has_alpha != 0 ? .rgba8 : .rgb8)
        return info
    }

    /// The profile in an extended file's `ICCP` chunk.
    static func colorProfile(in data: Data) -> ColorProfile? {
        chunk("ICCP", in: data).map { ColorProfile(data: $0) }
    }

    /// The payload of the first chunk named `fourCC`, found by libwebp's demuxer, which reads
    /// the chunk list in place: the file itself is never copied.
    private static func chunk(_ fourCC: String, in data: Data) -> Data? {
        data.withUnsafeBytes { raw -> Data? in
            var webpData = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demux = WebPDemux(&webpData) else { return nil }
            defer { WebPDemuxDelete(demux) }
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, fourCC, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
            return Data(bytes: bytes, count: iterator.chunk.size)
        }
    }

    /// An animation's loop count as the file states it (`0`: forever).
    static func loopCount(_ data: Data) -> Int {
        data.withUnsafeBytes { raw in
            var webpData = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demux = WebPDemux(&webpData) else { return 0 }
            defer { WebPDemuxDelete(demux) }
            return Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
        }
    }

    static func features(of data: Data, limits: DecodingLimits) throws(ImageDecodingError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { raw in
            WebPGetFeatures(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features)
        }
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, detail: describe(status)) }
        try limits.check(width: Int(features.width), height: Int(features.height))
        return features
    }

    /// A still image through libwebp's scaled decoding, straight into the result's buffer.
    private static func decodeStill(_ data: Data, stored: PixelSize, output: PixelSize, alpha: Bool) throws(ImageDecodingError) -> Image {
        let format: PixelFormat = alpha ? .rgba8 : .rgb8
        let stride = output.width * format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: stride * output.height)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt(.webp, detail: "libwebp version mismatch") }
        config.options.use_threads = 1
        if output != stored {  // the rescaler only when needed: it changes pixels even at 1:1
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(output.width)
            config.options.scaled_height = Int32(output.height)
        }
        config.output.colorspace = alpha ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        let status = pixels.withUnsafeMutableBufferPointer { out in
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = out.count
            return data.withUnsafeBytes { raw in
                WebPDecode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &config)
            }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw .corrupt(.webp, detail: describe(status)) }
        return try! Image(width: output.width, height: output.height, pixelFormat: format, pixels: pixels)
    }

    /// The frames of an animation — the first, or all within the limits — composed on the
    /// canvas by libwebp and each reduced at once; the canvas is libwebp's, so memory holds it
    /// and the output frames.
    private static func decodeFrames(_ data: Data, stored: PixelSize, output: PixelSize, frames: FrameSelection,
                                     limits: DecodingLimits) throws(ImageDecodingError) -> Image {
        if frames == .all { try limits.checkAnimation(canvas: stored, frames: frameCount(data)) }
        let result: Image? = data.withUnsafeBytes { raw in
            var webpData = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return nil }
            options.color_mode = MODE_RGBA
            options.use_threads = 1
            guard let decoder = WebPAnimDecoderNew(&webpData, &options) else { return nil }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
                  Int(info.canvas_width) == stored.width, Int(info.canvas_height) == stored.height else { return nil }
            var assembler = AnimationAssembler(canvasSize: stored, outputSize: output)
            var previous: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 && (frames == .all || assembler.frames.isEmpty) {
                if Task.isCancelled { return nil }
                var buffer: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else { break }  // a damaged tail ends it
                assembler.add(canvas: buffer, milliseconds: Int(timestamp - previous))
                previous = timestamp
            }
            return assembler.frames.isEmpty ? nil : assembler.finish(loopCount: Int(info.loop_count))
        }
        try ImageDecodingError.checkCancellation()
        guard let result else { throw .corrupt(.webp, detail: "cannot decode the frames of the animation") }
        return result
    }

    static func frameCount(_ data: Data) -> Int {
        data.withUnsafeBytes { raw in
            var webpData = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            guard let demux = WebPDemux(&webpData) else { return 1 }
            defer { WebPDemuxDelete(demux) }
            return max(1, Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)))
        }
    }

    /// The orientation in the `EXIF` chunk of an extended (VP8X) file.
    static func exifOrientation(in data: Data) -> Int? {
        guard var payload = chunk("EXIF", in: data) else { return nil }
        if payload.starts(with: Array("Exif\0\0".utf8)) { payload = payload.dropFirst(6) }
        return ExifReader.orientation(in: payload)
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (truncated file)"
        default: "decoding failed (status \(status.rawValue))"
        }
    }
}
