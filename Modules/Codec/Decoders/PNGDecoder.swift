import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes PNG with libpng, reducing rows as they arrive when a target size is given, so the
/// full image is never held (except for interlaced files, whose last pass needs every row).
///
/// Every colour type and bit depth decodes to 8-bit gray, RGB or RGBA: palettes and tRNS
/// are expanded, 16-bit samples are scaled with rounding, and no gamma correction is applied
/// (raw sample values). Gray with alpha becomes RGBA. Alpha is not premultiplied.
public struct PNGDecoder: ImageDecoding {
    /// The limits checked from the header.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .png)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        return try PNGSession.with(input) { session throws(ImageDecodingError) in
            let info = try session.readInfo(limits: limits)
            let orientation = Orientation(exifValue: session.exifOrientation ?? 1)
            let stored = PixelSize(width: Int(info.width), height: Int(info.height))
            let output = orientation.storedOutputSize(for: stored, options: options)
            let image = try session.decode(info, output: output)
            return orientation.applied(to: image)
        }
    }

    /// What the header says, without decoding pixels.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try PNGSession.with(input) { session throws(ImageDecodingError) in
            let info = try session.readHeader()
            let orientation = session.exifOrientation ?? 1
            let size = Orientation(exifValue: orientation).displayedSize(of: PixelSize(width: Int(info.width), height: Int(info.height)))
            return ImageInfo(format: .png, width: size.width, height: size.height, orientation: orientation,
                             hasAlpha: info.has_alpha != 0, frameCount: 1)
        }
    }
}

/// One libpng reader over an input, closed when the work is done.
struct PNGSession: ~Copyable {
    private let decoder: OpaquePointer

    private init(_ decoder: OpaquePointer) { self.decoder = decoder }

    deinit { osp_png_close(decoder) }

    /// Runs `body` with a session on `input`; bytes in memory stay pinned throughout.
    static func with<T>(_ input: ImageInput, _ body: (borrowing Self) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        try NativeInput.open(input, format: .png, file: osp_png_open_file, memory: osp_png_open_memory) { decoder throws(ImageDecodingError) in
            try body(Self(decoder))
        }
    }

    /// The header alone, for ``PNGDecoder/info(_:)``: nothing is allocated for pixels.
    func readHeader() throws(ImageDecodingError) -> osp_png_info {
        var info = osp_png_info()
        guard osp_png_read_info(decoder, &info) == 0 else { throw error() }
        return info
    }

    /// The header, checked against `limits`, with the transforms to decode it set.
    func readInfo(limits: DecodingLimits) throws(ImageDecodingError) -> osp_png_info {
        var info = osp_png_info()
        guard osp_png_read_info(decoder, &info) == 0 else { throw error() }
        try limits.check(width: Int(info.width), height: Int(info.height))
        guard osp_png_prepare(decoder, &info) == 0 else { throw error() }
        return info
    }

    var exifOrientation: Int? {
        var length = 0
        guard let exif = osp_png_exif(decoder, &length) else { return nil }
        return ExifReader.orientation(in: UnsafeBufferPointer(start: exif, count: length))
    }

    func decode(_ info: osp_png_info, output: PixelSize) throws(ImageDecodingError) -> Image {
        let size = PixelSize(width: Int(info.width), height: Int(info.height))
        let channels = Int(info.channels)
        let format: PixelFormat = channels == 1 ? .gray8 : channels == 3 ? .rgb8 : .rgba8
        var sink = Downsampler(sourceSize: size, outputSize: output, pixelFormat: format)
        let stride = size.width * channels
        if info.interlaced != 0 {
            var whole = [UInt8](repeating: 0, count: stride * size.height)
            let status = whole.withUnsafeMutableBufferPointer { osp_png_read_image(decoder, $0.baseAddress!, stride) }
            guard status == 0 else { throw error() }
            whole.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: size.height, stride: stride) }
        } else {
            let chunkRows = 16
            var chunk = [UInt8](repeating: 0, count: stride * chunkRows)
            while sink.rowsConsumed < size.height {
                let rows = min(chunkRows, size.height - sink.rowsConsumed)
                let status = chunk.withUnsafeMutableBufferPointer { osp_png_read_rows(decoder, $0.baseAddress!, stride, UInt32(rows)) }
                guard status == 0 else { throw error() }
                chunk.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: rows, stride: stride) }
            }
        }
        guard osp_png_read_end(decoder) == 0 else { throw error() }
        return sink.finish()
    }

    private func error() -> ImageDecodingError {
        let message = String(cString: osp_png_error_message(decoder))
        return .corrupt(.png, detail: message.isEmpty ? "unreadable data" : message)
    }
}
