import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

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

    /// The header, checked against `limits`, with the transforms to decode it set: 16-bit
    /// samples kept when `keepsHighBitDepth`.
    func readInfo(limits: DecodingLimits, keepsHighBitDepth: Bool = false) throws(ImageDecodingError) -> osp_png_info {
        var info = osp_png_info()
        guard osp_png_read_info(decoder, &info) == 0 else { throw error() }
        try limits.check(width: Int(info.width), height: Int(info.height))
        info.keeps_16 = keepsHighBitDepth ? 1 : 0
        guard osp_png_prepare(decoder, &info) == 0 else { throw error() }
        return info
    }

    var exifOrientation: Int? {
        var length = 0
        guard let exif = osp_png_exif(decoder, &length) else { return nil }
        return ExifReader.orientation(in: UnsafeBufferPointer(start: exif, count: length))
    }

    /// The iCCP chunk's profile (valid after the header is read).
    var colorProfile: ColorProfile? {
        var length = 0
        guard let icc = osp_png_icc(decoder, &length) else { return nil }
        let data = Data(bytes: icc, count: length)
        return ColorProfile(data: data)  // named only where shown: describing parses the profile again
    }

    func decode(_ info: osp_png_info, output: PixelSize) throws(ImageDecodingError) -> Image {
        let size = PixelSize(width: Int(info.width), height: Int(info.height))
        let channels = Int(info.channels)
        if info.bytes_per_sample == 2 { return try decodeSixteen(info, size: size, output: output) }
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
                try ImageDecodingError.checkCancellation()
                let rows = min(chunkRows, size.height - sink.rowsConsumed)
                let status = chunk.withUnsafeMutableBufferPointer { osp_png_read_rows(decoder, $0.baseAddress!, stride, UInt32(rows)) }
                guard status == 0 else { throw error() }
                chunk.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: rows, stride: stride) }
            }
        }
        guard osp_png_read_end(decoder) == 0 else { throw error() }
        return sink.finish()
    }

    /// 16-bit samples kept: the whole image read (the row reducer takes bytes), then resampled.
    private func decodeSixteen(_ info: osp_png_info, size: PixelSize, output: PixelSize) throws(ImageDecodingError) -> Image {
        let format: PixelFormat = info.channels == 1 ? .gray16 : info.channels == 3 ? .rgb16 : .rgba16
        let stride = size.width * format.bytesPerPixel
        var whole = [UInt8](repeating: 0, count: stride * size.height)
        let status = whole.withUnsafeMutableBufferPointer { buffer in
            info.interlaced != 0 ? osp_png_read_image(decoder, buffer.baseAddress!, stride)
                : osp_png_read_rows(decoder, buffer.baseAddress!, stride, UInt32(size.height))
        }
        guard status == 0, osp_png_read_end(decoder) == 0 else { throw error() }
        try ImageDecodingError.checkCancellation()
        let image = try! Image(width: size.width, height: size.height, pixelFormat: format, pixels: whole)
        return Resampler.resize(image, to: output)
    }

    private func error() -> ImageDecodingError {
        let message = String(cString: osp_png_error_message(decoder))
        return .corrupt(.png, detail: message.isEmpty ? "unreadable data" : message)
    }
}
