import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes BMP (Windows and OS/2 bitmaps) with a reader of Osprey's own: 1, 4 and 8-bit
/// palettes, 16, 24 and 32-bit pixels with their bit masks (alpha from a V4/V5 header's or
/// an `ALPHABITFIELDS` mask), RLE8 and RLE4, rows bottom-up or top-down. The header's size is
/// checked against the limits before a pixel is allocated, and every read is bounds-checked:
/// a file cut short keeps the rows it has, and rows it lacks are transparent, as browsers show
/// it. Also the reader of an ICO's bitmap entries (``ICODecoder``).
public struct BMPDecoder: ImageDecoding {
    /// The limits checked from the header before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .bmp)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let bytes = [UInt8](try InputReader.allBytes(of: input))
        guard bytes.count >= 14 + 12 else { throw .corrupt(.bmp, detail: "the file is shorter than its headers") }
        let pixelOffset = Int(Self.u32(bytes, 10))
        let image = try Self.dib(bytes, at: 14, pixelOffset: pixelOffset, limits: limits, format: .bmp)
        return Rescaling.rescale(image, options: options)
    }

    /// What the header says, without decoding.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let bytes = [UInt8](try InputReader.allBytes(of: input))
        guard bytes.count >= 14 + 12 else { throw .corrupt(.bmp, detail: "the file is shorter than its headers") }
        let header = try Header(bytes, at: 14, format: .bmp)
        var info = ImageInfo(format: .bmp, width: header.width, height: header.height, orientation: 1, hasAlpha: header.alphaMask != 0, frameCount: 1)
        info.bitDepth = header.bitCount >= 16 ? 8 : header.bitCount
        return info
    }

    /// A DIB's header: the BITMAPINFOHEADER family (and OS/2's BITMAPCOREHEADER).
    struct Header {
        var size: Int
        var width: Int
        var height: Int
        var topDown: Bool
        var bitCount: Int
        var compression: Int
        var colorsUsed: Int
        var masks: [UInt32] = []
        var alphaMask: UInt32 = 0

        init(_ b: [UInt8], at offset: Int, format: ImageFormat) throws(ImageDecodingError) {
            guard offset + 4 <= b.count else { throw .corrupt(format, detail: "no bitmap header") }
            size = Int(BMPDecoder.u32(b, offset))
            guard [12, 40, 52, 56, 64, 108, 124].contains(size), offset + size <= b.count else {
                throw .corrupt(format, detail: "a bitmap header of \(size) bytes")
            }
            if size == 12 {
                width = Int(BMPDecoder.u16(b, offset + 4))
                height = Int(BMPDecoder.u16(b, offset + 6))
                bitCount = Int(BMPDecoder.u16(b, offset + 10))
                (topDown, compression, colorsUsed) = (false, 0, 0)
            } else {
                width = Int(Int32(bitPattern: BMPDecoder.u32(b, offset + 4)))
                let signedHeight = Int(Int32(bitPattern: BMPDecoder.u32(b, offset + 8)))
                (height, topDown) = (abs(signedHeight), signedHeight < 0)
                bitCount = Int(BMPDecoder.u16(b, offset + 14))
                compression = Int(BMPDecoder.u32(b, offset + 16))
                colorsUsed = Int(BMPDecoder.u32(b, offset + 32))
            }
            guard [1, 4, 8, 16, 24, 32].contains(bitCount) else { throw .unsupportedFormat(format, detail: "\(bitCount) bits a pixel") }
            guard [0, 1, 2, 3, 6].contains(compression) else {
                throw .unsupportedFormat(format, detail: "compression \(compression) (embedded JPEG or PNG)")
            }
            guard compression != 1 || bitCount == 8, compression != 2 || bitCount == 4,
                  compression < 3 || bitCount == 16 || bitCount == 32 else {
                throw .corrupt(format, detail: "compression \(compression) with \(bitCount) bits a pixel")
            }
            if compression == 3 || compression == 6 {
                // Masks follow a 40-byte header, or are inside a larger one.
                let count = compression == 6 || size >= 56 ? 4 : 3
                guard offset + 40 + 4 * count <= b.count else { throw .corrupt(format, detail: "the bit masks are cut off") }
                masks = (0..<count).map { BMPDecoder.u32(b, offset + 40 + 4 * $0) }
                alphaMask = count == 4 ? masks[3] : 0
                masks = Array(masks.prefix(3))
            } else if bitCount == 16 {
                masks = [0x7C00, 0x03E0, 0x001F]
            } else if bitCount == 32, size >= 56, BMPDecoder.u32(b, offset + 52) != 0 {
                // A V3+ header's alpha mask with plain 32-bit pixels (as Chromium reads it).
                alphaMask = BMPDecoder.u32(b, offset + 52)
                masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
            }
        }

        /// Where the palette starts: after the header and any masks outside it.
        func paletteOffset(_ headerOffset: Int) -> Int {
            headerOffset + size + (size == 40 && (compression == 3 || compression == 6) ? (compression == 6 ? 16 : 12) : 0)
        }
    }

    /// The DIB at `offset`: its header, palette and pixels (at `pixelOffset`, or after the
    /// palette when `nil`). For an ICO entry, `iconMask` reads the AND mask after the pixels,
    /// whose height is half the header's.
    static func dib(_ b: [UInt8], at offset: Int, pixelOffset: Int?, limits: DecodingLimits, format: ImageFormat,
                    iconMask: Bool = false) throws(ImageDecodingError) -> Image {
        var header = try Header(b, at: offset, format: format)
        if iconMask { header.height /= 2 }
        let (width, height) = (header.width, header.height)
        try limits.check(width: width, height: height)
        let entrySize = header.size == 12 ? 3 : 4
        let paletteStart = header.paletteOffset(offset)
        var palette: [[UInt8]] = []
        if header.bitCount <= 8 {
            let count = header.colorsUsed > 0 ? min(header.colorsUsed, 1 << header.bitCount) : 1 << header.bitCount
            for i in 0..<count {
                let at = paletteStart + i * entrySize
                guard at + 3 <= b.count else { break }
                palette.append([b[at + 2], b[at + 1], b[at]])
            }
            guard !palette.isEmpty else { throw .corrupt(format, detail: "no palette") }
        }
        let start = pixelOffset ?? paletteStart + palette.count * entrySize
        let stride = (width * header.bitCount + 31) / 32 * 4
        if !iconMask, let image = try rows(b, from: start, stride: stride, header: header, palette: palette, format: format) {
            return image
        }
        // 32-bit pixels without masks carry alpha in their fourth byte only when some pixel's
        // is not 0, as Chromium and Firefox read them (many writers leave it 0).
        let fourthByteIsAlpha = header.bitCount == 32 && header.compression == 0 && (0..<height).contains { y in
            let base = start + y * stride
            return base >= 0 && base + stride <= b.count && (0..<width).contains { b[base + $0 * 4 + 3] != 0 }
        }
        let hasAlpha = header.alphaMask != 0 || fourthByteIsAlpha
        // Every pixel starts transparent: rows or runs a file lacks stay so.
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let row = { (y: Int) in header.topDown ? y : height - 1 - y }
        func put(_ x: Int, _ y: Int, _ color: [UInt8], alpha: UInt8 = 255) {
            let at = (row(y) * width + x) * 4
            (rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]) = (color[0], color[1], color[2], alpha)
        }
        // Skipped runs and rows a file lacks are transparent: the result keeps alpha then.
        var complete = header.compression != 1 && header.compression != 2
        if !complete {
            try decodeRLE(b, from: start, header: header, palette: palette, format: format, put: put)
        } else {
            // A mask's value scaled to 0…255, in 64 bits: a full 32-bit mask times 255 overflows 32.
            let scale = { (value: UInt32, mask: UInt32) -> UInt8 in
                guard mask != 0 else { return 0 }
                let shift = UInt32(mask.trailingZeroBitCount)
                return UInt8(UInt64((value & mask) >> shift) * 255 / UInt64(mask >> shift))
            }
            for y in 0..<height {
                let base = start + y * stride
                guard base >= 0, base + stride <= b.count else {
                    complete = false
                    break
                }
                for x in 0..<width {
                    switch header.bitCount {
                    case 1, 4, 8:
                        let bit = x * header.bitCount
                        let byte = Int(b[base + bit / 8])
                        let index = (byte >> (8 - header.bitCount - bit % 8)) & ((1 << header.bitCount) - 1)
                        put(x, y, palette[min(index, palette.count - 1)])
                    case 24:
                        let at = base + x * 3
                        put(x, y, [b[at + 2], b[at + 1], b[at]])
                    default:
                        let at = base + x * header.bitCount / 8
                        let value = header.bitCount == 16 ? UInt32(u16(b, at)) : u32(b, at)
                        let channels = header.masks.isEmpty
                            ? [b[at + 2], b[at + 1], b[at]]
                            : (0..<3).map { scale(value, header.masks[$0]) }
                        let alpha = header.alphaMask == 0 ? 255 : scale(value, header.alphaMask)
                        put(x, y, channels, alpha: fourthByteIsAlpha ? b[at + 3] : alpha)
                    }
                }
            }
        }
        if iconMask && !hasAlpha {
            // The AND mask: one bit a pixel, set where the icon is transparent.
            let maskStride = (width + 31) / 32 * 4
            let maskStart = start + stride * height
            for y in 0..<height {
                let base = maskStart + y * maskStride
                guard base + maskStride <= b.count else { break }
                for x in 0..<width where b[base + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                    rgba[(row(y) * width + x) * 4 + 3] = 0
                }
            }
        }
        let opaque = !hasAlpha && !iconMask && complete
        do {
            let image = try Image(width: width, height: height, pixelFormat: .rgba8, pixels: rgba)
            return opaque ? PixelConversion.converted(image, to: .rgb8) : image
        } catch {
            throw .corrupt(format, detail: "\(error)")
        }
    }

    /// The common layouts whole, a row at a time: 24-bit, 32-bit with the usual masks and
    /// 8-bit palettes, every row in the file. `nil` for any other, which the general reader takes.
    private static func rows(_ b: [UInt8], from start: Int, stride: Int, header: Header, palette: [[UInt8]],
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
    private static func decodeRLE(_ b: [UInt8], from start: Int, header: Header, palette: [[UInt8]], format: ImageFormat,
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

    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 {
        at + 2 <= b.count ? UInt16(b[at]) | UInt16(b[at + 1]) << 8 : 0
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        at + 4 <= b.count ? UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 : 0
    }
}
