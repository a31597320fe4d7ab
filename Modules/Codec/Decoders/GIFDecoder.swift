import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes GIF with giflib: stills, and animations frame by frame on one canvas.
///
/// Every frame is drawn on a canvas the size of the logical screen (frames reaching past it
/// are clipped), after the previous frame's disposal (keep, restore to transparent, restore
/// the previous canvas), then reduced to the target size at once. Global and local palettes,
/// the transparent index and interlacing are honoured. GIF carries no ICC profile.
///
/// Damaged files are drawn as browsers draw them (`Docs/CODEC.md`): a frame whose data ends
/// early keeps the rows that arrived (the rest stays as the canvas was) and ends the
/// animation; a frame without a colour table uses the global one, or else a grey ramp; a
/// frame of zero width or height is skipped; a logical screen smaller than the first frame
/// (even of zero height) grows to it. A frame whose data holds an impossible code ends the
/// animation at the frame before it. Only a file with no drawable frame is refused.
public struct GIFDecoder: ImageDecoding {
    /// The limits checked from the header and the block scan.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .gif)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        FillCrop.apply(try decodeScaled(input, options: options), options: options)
    }

    /// `input` at ``DecodingOptions/outputSize(for:)``: covering the target for `fill`.
    private func decodeScaled(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        let info = try Self.scan(data, limits: limits, maxFrames: options.frames == .all ? limits.maxFrames : .max)
        let canvasSize = PixelSize(width: Int(info.width), height: Int(info.height))
        if options.frames == .all {
            try limits.checkAnimation(canvas: canvasSize, frames: Int(info.frame_count))
            // Each frame's data is decompressed whole, however little of it the canvas shows.
            let decompressed = Int(clamping: info.frame_pixels)
            guard decompressed <= limits.maxAnimationPixels else {
                throw .animationTooLarge(pixels: decompressed, limit: limits.maxAnimationPixels)
            }
        }
        var assembler = AnimationAssembler(canvasSize: canvasSize, outputSize: options.outputSize(for: canvasSize))
        var canvas = [UInt8](repeating: 0, count: canvasSize.byteCount(bytesPerPixel: 4))
        try Self.withDecoder(data) { decoder throws(ImageDecodingError) in
            while options.frames == .all || assembler.frames.isEmpty {
                try ImageDecodingError.checkCancellation()
                var delay: Int32 = 0
                let status = canvas.withUnsafeMutableBufferPointer { osp_gif_next_frame(decoder, $0.baseAddress!, &delay, Self.cancelled) }
                if status == -3 { throw .cancelled }
                if status == 1 {
                    canvas.withUnsafeBufferPointer { assembler.add(canvas: $0.baseAddress!, milliseconds: Int(delay) * 10) }
                } else if status == 0 || (status == -2 && !assembler.frames.isEmpty) {
                    break
                } else {
                    throw .corrupt(.gif, detail: String(cString: osp_gif_error_message(decoder)))
                }
            }
        }
        guard !assembler.frames.isEmpty else { throw .corrupt(.gif, detail: "no drawable frame in the file") }
        return assembler.finish(loopCount: Self.plays(info))
    }

    /// What the header and the block scan say, without decoding a frame.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let info = try Self.scan(InputReader.allBytes(of: input), limits: DecodingLimits(maxPixels: .max), maxFrames: .max)
        var result = ImageInfo(format: .gif, width: Int(info.width), height: Int(info.height), orientation: 1,
                               hasAlpha: info.has_transparency != 0, frameCount: Int(info.frame_count))
        if info.frame_count > 1 { result.loopCount = Self.plays(info) }
        return result
    }

    /// How many times the animation plays: a NETSCAPE repeat count of n plays n + 1 times
    /// (0 repeats forever), and a file without one plays once, as browsers do.
    static func plays(_ info: osp_gif_info) -> Int {
        info.loop_count < 0 ? 1 : info.loop_count == 0 ? 0 : Int(info.loop_count) + 1
    }

    /// The screen size and every frame's descriptor (up to `maxFrames` + 1 frames), checked
    /// against the pixel limit (a frame's rows are decompressed whole even where the screen
    /// clips them), and the drawable frames counted.
    static func scan(_ data: Data, limits: DecodingLimits, maxFrames: Int) throws(ImageDecodingError) -> osp_gif_info {
        try withDecoder(data) { decoder throws(ImageDecodingError) in
            var info = osp_gif_info()
            let status = osp_gif_scan(decoder, &info, Int32(clamping: maxFrames))
            if info.width > 0 || info.height > 0 { try limits.check(width: Int(info.width), height: Int(info.height)) }
            if info.widest_frame_width > 0 { try limits.check(width: Int(info.widest_frame_width), height: Int(info.widest_frame_height)) }
            guard status == 0 else { throw .corrupt(.gif, detail: String(cString: osp_gif_error_message(decoder))) }
            try limits.check(width: Int(info.width), height: Int(info.height))
            return info
        }
    }

    /// Asked by giflib's row loop: whether the calling task is cancelled.
    static let cancelled: @convention(c) () -> Int32 = { Task.isCancelled ? 1 : 0 }

    private static func withDecoder<T>(_ data: Data, _ body: (OpaquePointer) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0,
                  let decoder = osp_gif_open_memory(base.assumingMemoryBound(to: UInt8.self), raw.count) else {
                return .failure(.corrupt(.gif, detail: "empty input"))
            }
            defer { osp_gif_close(decoder) }
            do throws(ImageDecodingError) { return .success(try body(decoder)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
