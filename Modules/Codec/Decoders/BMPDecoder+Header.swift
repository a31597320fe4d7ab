import OspreyDomain

extension BMPDecoder {
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
}
