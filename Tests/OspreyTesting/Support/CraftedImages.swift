import Foundation

/// Hand-made files for limit tests: valid headers that claim more than they hold.
public enum CraftedImages {
    /// A PNG whose header claims `width`×`height` 8-bit RGB pixels, with one tiny IDAT.
    public static func png(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        ihdr.append(bigEndian: width)
        ihdr.append(bigEndian: height)
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit, RGB, deflate, adaptive filter, no interlace
        data.append(chunk: "IHDR", ihdr)
        data.append(chunk: "IDAT", Data([0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]))  // zlib of one zero byte
        data.append(chunk: "IEND", Data())
        return data
    }

    /// A little-endian TIFF of `side`×`side` 8-bit CMYK pixels in one Deflate tile of
    /// `tile`×`tile`, whose compressed data is `payload`: a tile far larger than its page.
    public static func tiff(side: UInt32, tile: UInt32, payload: Data) -> Data {
        // Tags in ascending order: (tag, type, count, value); type 3 SHORT, 4 LONG.
        let dataOffset: UInt32 = 8 + 2 + 12 * 12 + 4 + 8
        let entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (256, 4, 1, side), (257, 4, 1, side), (258, 3, 4, dataOffset - 8), (259, 3, 1, 8), (262, 3, 1, 5), (277, 3, 1, 4),
            (284, 3, 1, 1), (322, 4, 1, tile), (323, 4, 1, tile), (324, 4, 1, dataOffset), (325, 4, 1, UInt32(payload.count)),
            (332, 3, 1, 1),
        ]
        var data = Data([0x49, 0x49, 42, 0])
        data.append(littleEndian: UInt32(8))
        data.append(littleEndian: UInt16(entries.count))
        for (tag, type, count, value) in entries {
            data.append(littleEndian: tag)
            data.append(littleEndian: type)
            data.append(littleEndian: count)
            data.append(littleEndian: value)
        }
        data.append(littleEndian: UInt32(0))
        for _ in 0..<4 { data.append(littleEndian: UInt16(8)) }  // BitsPerSample, out of line
        return data + payload
    }

    /// An APNG whose header claims `width`×`height` RGB pixels and `frames` frames, each with
    /// an fcTL covering the canvas and one tiny fdAT (CRCs correct).
    public static func apng(width: UInt32, height: UInt32, frames: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr = Data()
        ihdr.append(bigEndian: width)
        ihdr.append(bigEndian: height)
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])
        data.append(chunk: "IHDR", ihdr)
        var actl = Data()
        actl.append(bigEndian: frames)
        actl.append(bigEndian: UInt32(0))
        data.append(chunk: "acTL", actl)
        let zlib = Data([0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        var sequence: UInt32 = 0
        for frame in 0..<frames {
            var fctl = Data()
            for value in [sequence, width, height, 0, 0] { fctl.append(bigEndian: value) }
            fctl.append(contentsOf: [0, 1, 0, 10, 0, 0])  // 1/10 s, dispose none, blend source
            data.append(chunk: "fcTL", fctl)
            sequence += 1
            if frame == 0 {
                data.append(chunk: "IDAT", zlib)
            } else {
                var fdat = Data()
                fdat.append(bigEndian: sequence)
                data.append(chunk: "fdAT", fdat + zlib)
                sequence += 1
            }
        }
        data.append(chunk: "IEND", Data())
        return data
    }

    /// A GIF whose screen is `side`² with `frames` frames of one pixel each.
    public static func gif(frames: Int, side: Int) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += [UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), 0x80, 0, 0]
        bytes += [0, 0, 0, 255, 255, 255]  // a global table of two colours
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]
        for _ in 0..<frames { bytes += frame }
        bytes.append(0x3B)
        return Data(bytes)
    }

    /// One frame of ``gif(width:height:palette:frames:)``: its rectangle, its own colour table
    /// (RGB triples) if any, and its pixels' indices (`nil`: the file ends after its descriptor).
    public struct GIFFrame: Sendable {
        public var x = 0, y = 0, width: Int, height: Int
        public var palette: [UInt8]?
        public var indices: [UInt8]?

        public init(x: Int = 0, y: Int = 0, width: Int, height: Int, palette: [UInt8]? = nil, indices: [UInt8]?) {
            (self.x, self.y, self.width, self.height, self.palette, self.indices) = (x, y, width, height, palette, indices)
        }
    }

    /// A GIF of `frames` on a `width`×`height` screen with a global colour table `palette`
    /// (RGB triples; `nil`: none). Pixels are coded as 9-bit LZW literals with a clear code
    /// every 250, so any index list is valid data.
    public static func gif(width: Int, height: Int, palette: [UInt8]?, frames: [GIFFrame]) -> Data {
        func table(_ colors: [UInt8]) -> (bytes: [UInt8], sizeBits: UInt8) {
            var entries = 2
            while entries * 3 < colors.count { entries *= 2 }
            return (colors + [UInt8](repeating: 0, count: entries * 3 - colors.count), UInt8(entries.trailingZeroBitCount - 1))
        }
        func little(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        var bytes = Array("GIF89a".utf8) + little(width) + little(height)
        if let palette {
            let (colors, bits) = table(palette)
            bytes += [0x80 | bits, 0, 0] + colors
        } else {
            bytes += [0, 0, 0]
        }
        for frame in frames {
            bytes += [0x2C] + little(frame.x) + little(frame.y) + little(frame.width) + little(frame.height)
            if let palette = frame.palette {
                let (colors, bits) = table(palette)
                bytes += [0x80 | bits] + colors
            } else {
                bytes.append(0)
            }
            guard let indices = frame.indices else { return Data(bytes) }
            bytes += lzwLiterals(indices)
        }
        return Data(bytes + [0x3B])
    }

    /// `indices` as GIF image data: minimum code size 8, then sub-blocks of 9-bit codes.
    static func lzwLiterals(_ indices: [UInt8]) -> [UInt8] {
        var codes = [256]
        for (count, index) in indices.enumerated() {
            if count > 0 && count % 250 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        codes.append(257)
        var packed: [UInt8] = [], accumulator = 0, bits = 0
        for code in codes {
            accumulator |= code << bits
            bits += 9
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        var data: [UInt8] = [8]
        for start in stride(from: 0, to: packed.count, by: 255) {
            let block = packed[start..<min(start + 255, packed.count)]
            data += [UInt8(block.count)] + block
        }
        return data + [0]
    }

    /// A HEIF or AVIF file with every `ispe` box (the declared image size) rewritten.
    public static func heif(_ data: Data, declaringWidth width: UInt32, height: UInt32) -> Data {
        var bytes = [UInt8](data)
        var start = 0
        while let found = bytes[start...].firstRange(of: Array("ispe".utf8)) {
            let at = found.upperBound + 4  // after the type, version and flags
            guard at + 8 <= bytes.count else { break }
            for (offset, value) in [(0, width), (4, height)] {
                for i in 0..<4 { bytes[at + offset + i] = UInt8(value >> (24 - 8 * UInt32(i)) & 0xFF) }
            }
            start = found.upperBound
        }
        return Data(bytes)
    }

    /// `data` with the size field of the first box of `type` set to `size`.
    public static func heif(_ data: Data, settingSizeOf type: String, to size: UInt32) -> Data {
        var bytes = [UInt8](data)
        guard let found = bytes.firstRange(of: Array(type.utf8)), found.lowerBound >= 4 else { return data }
        for i in 0..<4 { bytes[found.lowerBound - 4 + i] = UInt8(size >> (24 - 8 * UInt32(i)) & 0xFF) }
        return Data(bytes)
    }

    /// `jpeg` with its frame header rewritten to claim `width`×`height`.
    public static func jpeg(from jpeg: Data, width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](jpeg)
        var i = 2
        while i + 9 < bytes.count {
            guard bytes[i] == 0xFF else { i += 1; continue }
            let marker = bytes[i + 1]
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if (0xC0...0xC2).contains(marker) {
                bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
                bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
                break
            }
            i += 2 + length
        }
        return Data(bytes)
    }

    /// `png` with every chunk's CRC recomputed, so damage inside chunks reaches the decoder
    /// instead of stopping at the checksum. Stops at the first chunk that does not fit.
    public static func fixingPNGChecksums(_ png: Data) -> Data {
        var bytes = [UInt8](png)
        var i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 0, i + 12 + length <= bytes.count else { break }
            let crc = crc32(Data(bytes[(i + 4)..<(i + 8 + length)]))
            bytes[i + 8 + length] = UInt8(crc >> 24)
            bytes[i + 9 + length] = UInt8(crc >> 16 & 0xFF)
            bytes[i + 10 + length] = UInt8(crc >> 8 & 0xFF)
            bytes[i + 11 + length] = UInt8(crc & 0xFF)
            i += 12 + length
        }
        return Data(bytes)
    }

    /// CRC-32 as PNG uses it.
    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    mutating func append<Value: FixedWidthInteger>(littleEndian value: Value) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func append(chunk type: String, _ payload: Data) {
        append(bigEndian: UInt32(payload.count))
        let typed = Data(type.utf8) + payload
        append(typed)
        append(bigEndian: CraftedImages.crc32(typed))
    }
}
