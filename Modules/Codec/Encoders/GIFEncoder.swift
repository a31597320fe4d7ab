import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes GIF as libvips does: each frame quantised to 255 colours by libimagequant with
/// Floyd–Steinberg dithering, written by cgif with a palette shared while it fits, pixels
/// that do not change left transparent and each frame cropped to what changed. An animated
/// `Image` keeps every frame, its delay (in GIF's hundredths of a second) and the loop
/// count; alpha is kept at one bit (half opaque or more is opaque).
public struct GIFEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .gif, animation: true, alpha: true, lossless: false, quality: false)] }

    /// How much the quantisation error is spread to neighbouring pixels, 0…1 (libvips' 1).
    public var dithering: Double
    /// libimagequant's effort, 1 (fastest) to 10 (libvips' default is 7).
    public var effort: Int

    /// Creates an encoder with libvips' defaults.
    public init(dithering: Double = 1, effort: Int = 7) {
        self.dithering = dithering
        self.effort = effort
    }

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .gif else { throw .unsupportedFormat(options.format) }
        let frames = image.animation?.frames ?? [ImageAnimation.Frame(image: image, duration: .zero)]
        let size = frames[0].image.size
        let rgba = frames.map { PixelConversion.converted($0.image, to: .rgba8) }
        guard rgba.allSatisfy({ $0.size == size && $0.bytesPerRow == size.width * 4 }) else {
            throw .failed(.gif, detail: "animation frames differ in size")
        }
        let delays = frames.map { UInt16(clamping: Int(($0.duration / .milliseconds(10)).rounded())) }
        let loops = image.animation?.loopCount ?? 0
        let speed = Int32(11 - max(1, min(10, effort)))
        return try CEncoded.run(format: .gif) { out, length, error, capacity in
            Self.withPointers(to: rgba.map(\.pixels)) { pointers in
                osp_gif_encode(pointers.baseAddress, pointers.count, UInt32(size.width), UInt32(size.height), delays,
                               Int32(clamping: loops), max(0, min(1, dithering)), speed, out, length, error, capacity)
            }
        }
    }

    /// Each array's storage, alive while `body` runs.
    private static func withPointers<R>(to arrays: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafePointer<UInt8>?>) -> R) -> R {
        func nest(_ index: Int, _ collected: [UnsafePointer<UInt8>?]) -> R {
            guard index < arrays.count else { return collected.withUnsafeBufferPointer(body) }
            return arrays[index].withUnsafeBufferPointer { nest(index + 1, collected + [$0.baseAddress]) }
        }
        return nest(0, [])
    }
}
