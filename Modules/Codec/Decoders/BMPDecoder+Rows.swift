import CCodecShims
import OspreyDomain

/// The pixels of a bitmap: the common layouts a row at a time, and RLE's runs.
extension BMPDecoder {
    /// The common layouts whole, a row at a time: 24-bit, 32-bit with the usual masks and
    /// 8-bit palettes, every row in the file. `nil` for any other, which the general reader takes.
    static func rows(_ b: [UInt8], from start: Int, stride: Int, header: Header, palette: [[UInt8]],
                             format: ImageFormat) throws(ImageDecodingError) -> Image? {
        let (width, height, bits) = (header.width, header.height, header.bitCount)
        let usualMasks = header.masks.isEmpty || header.masks == [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
        let usual = switch bits {
        case 8, 24: header.compression == 0
        case 32: usualMasks && (header.alphaMask == 0 || header.alphaMask == 0xFF00_0000)
        default: false
        }
        guard usual, start >= 0, stride * height <= b.count - start else { return nil }
        return b.withUnsafeBufferPointer { file -> Image in
            let pixels = file.baseAddress! + start
            // 32-bit pixels without an alpha mask carry alpha in their fourth byte only when some
            // pixel's is not 0, as Chromium and Firefox read them (many writers leave it 0).
            let alpha = bits == 32 && (header.alphaMask != 0 || header.compression == 0 && (0..<height).contains { y in
                let row = pixels + y * stride
                return (0..<width).contains { row[$0 * 4 + 3] != 0 }
            })
            let channels = alpha ? 4 : 3
            var table = [UInt8](repeating: 0, count: 256 * 3)
            for index in 0..<(bits == 8 ? 256 : 0) { table.replaceSubrange(index * 3..<index * 3 + 3, with: palette[min(index, palette.count - 1)]) }
            let out = [UInt8](unsafeUninitializedCapacity: width * height * channels) { out, initialized in
                for y in 0..<height {
                    let source = pixels + y * stride
                    let target = out.baseAddress! + (header.topDown ? y : height - 1 - y) * width * channels
                    switch bits {
                    case 8: table.withUnsafeBufferPointer { osp_bmp_palette8(source, $0.baseAddress!, target, width) }
                    case 24: osp_bmp_swap3(source, target, width)
                    default: if alpha { osp_bmp_swap4(source, target, width) } else { osp_bmp_bgrx_to_rgb(source, target, width) }
                    }
                }
                initialized = width * height * channels
            }
            return try! Image(width: width, height: height, pixelFormat: alpha ? .rgba8 : .rgb8, pixels: out)
        }
    }

    /// RLE8 and RLE4: runs, literal runs, end of line, end of bitmap, and moves.
    static func decodeRLE(_ b: [UInt8], from start: Int, header: Header, palette: [[UInt8]], format: ImageFormat,
                                  put: (Int, Int, [UInt8], UInt8) -> Void) throws(ImageDecodingError) {
        let four = header.compression == 2
        var (x, y, at) = (0, 0, start)
        let color = { (index: Int) in palette[min(index, palette.count - 1)] }
        // Pixels past the row's end are counted, not drawn: a run costs at most the row's width.
        func draw(_ count: Int, _ index: (Int) -> Int) {
            for i in 0..<max(0, min(count, header.width - x)) where y < header.height { put(x + i, y, color(index(i)), 255) }
            x += count
        }
        while at + 1 < b.count, y < header.height {
            let (count, value) = (Int(b[at]), Int(b[at + 1]))
            at += 2
            if count > 0 {
                draw(count) { four ? ($0 % 2 == 0 ? value >> 4 : value & 0x0F) : value }
                continue
            }
            switch value {
            case 0: (x, y) = (0, y + 1)
            case 1: return
            case 2:
                guard at + 1 < b.count else { return }
                (x, y) = (x + Int(b[at]), y + Int(b[at + 1]))
                at += 2
            default:
                let bytes = four ? (value + 1) / 2 : value
                guard at + bytes <= b.count else { return }
                let literal = at
                draw(value) { four ? ($0 % 2 == 0 ? Int(b[literal + $0 / 2]) >> 4 : Int(b[literal + $0 / 2]) & 0x0F) : Int(b[literal + $0]) }
                at += (bytes + 1) / 2 * 2
            }
        }
    }
}
