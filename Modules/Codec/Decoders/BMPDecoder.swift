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

    static func u16(_ b: [UInt8], _ at: Int) -> UInt16 {
        at + 2 <= b.count ? UInt16(b[at]) | UInt16(b[at + 1]) << 8 : 0
    }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        at + 4 <= b.count ? UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24 : 0
    }
}
