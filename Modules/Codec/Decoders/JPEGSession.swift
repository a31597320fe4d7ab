import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// One libjpeg decompressor over an input, closed when the work is done.
struct JPEGSession: ~Copyable {
    private let decoder: OpaquePointer

    private init(_ decoder: OpaquePointer) { self.decoder = decoder }

    deinit { osp_jpeg_close(decoder) }

    /// Runs `body` with a session on `input`; bytes in memory stay pinned throughout.
    static func with<T>(_ input: ImageInput, _ body: (borrowing Self) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        try NativeInput.open(input, format: .jpeg, file: osp_jpeg_open_file, memory: osp_jpeg_open_memory) { decoder throws(ImageDecodingError) in
            try body(Self(decoder))
        }
    }

    func readHeader(limits: DecodingLimits) throws(ImageDecodingError) -> osp_jpeg_header {
        var header = osp_jpeg_header()
        guard osp_jpeg_read_header(decoder, &header) == 0 else { throw error() }
        try limits.check(width: Int(header.width), height: Int(header.height))
        return header
    }

    func acceptTruncation(_ accept: Bool) { osp_jpeg_accept_truncation(decoder, accept ? 1 : 0) }

    var exifOrientation: Int? {
        var length = 0
        guard let exif = osp_jpeg_exif(decoder, &length) else { return nil }
        return ExifReader.orientation(in: UnsafeBufferPointer(start: exif, count: length))
    }

    /// The JPEG thumbnail in the EXIF block's IFD1, copied out.
    var exifThumbnail: Data? {
        var length = 0
        guard let exif = osp_jpeg_exif(decoder, &length) else { return nil }
        let payload = UnsafeBufferPointer(start: exif, count: length)
        return ExifReader.thumbnailRange(in: payload).map { Data(payload[$0]) }
    }

    /// The profile in the APP2 markers, reassembled (valid after the header is read).
    var colorProfile: ColorProfile? {
        var length = 0
        guard let icc = osp_jpeg_icc(decoder, &length) else { return nil }
        defer { osp_free(icc) }
        let data = Data(bytes: icc, count: length)
        return ColorProfile(data: data)  // named only where shown: describing parses the profile again
    }

    /// Decodes at 1/`scaleDenominator` and resamples to `output` (stored orientation), or
    /// keeps the scaled size when `output` is `nil`.
    func decode(scaleDenominator: UInt32, output: PixelSize?, cmyk: Bool, inverted: Bool,
                transform: ColorManagement.Transform?) throws(ImageDecodingError) -> Image {
        var width: UInt32 = 0, height: UInt32 = 0
        var components: Int32 = 0
        guard osp_jpeg_start(decoder, scaleDenominator, &width, &height, &components) == 0 else { throw error() }
        return try readRows(width: width, height: height, components: components, output: output, cmyk: cmyk, inverted: inverted,
                            transform: transform)
    }

    /// A progressive file at 1/8 from its first scans, those that give every component its DC
    /// terms, resampled to `output`; `nil` for a file that is not progressive. Not CMYK.
    func decodeFirstScans(output: PixelSize) throws(ImageDecodingError) -> Image? {
        var width: UInt32 = 0, height: UInt32 = 0
        var components: Int32 = 0
        switch osp_jpeg_start_first_scans(decoder, &width, &height, &components) {
        case 0: break
        case 1: return nil
        default: throw error()
        }
        return try readRows(width: width, height: height, components: components, output: output, cmyk: false, inverted: false,
                            transform: nil)
    }

    private func readRows(width: UInt32, height: UInt32, components: Int32, output: PixelSize?, cmyk: Bool, inverted: Bool,
                          transform: ColorManagement.Transform?) throws(ImageDecodingError) -> Image {
        let decoded = PixelSize(width: Int(width), height: Int(height))
        let format: PixelFormat = components == 1 ? .gray8 : .rgb8
        var sink = Downsampler(sourceSize: decoded, outputSize: output ?? decoded, pixelFormat: format)
        let chunkRows = 16
        let stride = decoded.width * Int(components)
        var chunk = [UInt8](repeating: 0, count: stride * chunkRows)
        var converted = cmyk ? [UInt8](repeating: 0, count: decoded.width * 3 * chunkRows) : []
        while sink.rowsConsumed < decoded.height {
            try ImageDecodingError.checkCancellation()
            let read = chunk.withUnsafeMutableBufferPointer { osp_jpeg_read_rows(decoder, $0.baseAddress!, stride, Int32(chunkRows)) }
            guard read > 0 else { throw read < 0 ? error() : .corrupt(.jpeg, detail: "no scanlines returned") }
            if let transform {
                chunk.withUnsafeBufferPointer { src in
                    converted.withUnsafeMutableBufferPointer { transform.run(src.baseAddress!, $0.baseAddress!, pixels: decoded.width * Int(read)) }
                }
                converted.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: Int(read), stride: decoded.width * 3) }
            } else if cmyk {
                CMYK.convert(chunk, into: &converted, pixels: decoded.width * Int(read), inverted: inverted)
                converted.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: Int(read), stride: decoded.width * 3) }
            } else {
                chunk.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: Int(read), stride: stride) }
            }
        }
        return sink.finish()
    }

    private func error() -> ImageDecodingError {
        let message = String(cString: osp_jpeg_error_message(decoder))
        if message.hasPrefix("Unsupported JPEG") { return .unsupportedFormat(.jpeg, detail: message) }
        if message.hasPrefix("Not a JPEG file") { return .notAnImage(prefix: message) }
        return .corrupt(.jpeg, detail: message.isEmpty ? "unreadable data" : message)
    }
}
