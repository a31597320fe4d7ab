import Foundation

/// gzip with stored (uncompressed) deflate blocks: valid gzip any client must decode.
enum Gzip {
    static func stored(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF])
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)])
            out.append(data[offset..<offset + length])
            offset += length
        } while offset < data.count
        let crc = CraftedImages.crc32(data)
        let size = UInt32(truncatingIfNeeded: data.count)
        for value in [crc, size] { out.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]) }
        return out
    }
}
