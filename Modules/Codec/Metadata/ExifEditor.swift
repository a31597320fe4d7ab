import Foundation

/// Changes to an EXIF block (a TIFF structure) an encoder writes again: the orientation of
/// pixels that were turned upright, and a block reduced to who made the image and who owns it.
/// Offsets are checked as ``ExifReader`` checks them; a broken block is passed over.
enum ExifEditor {
    static let orientationTag: UInt16 = 0x0112
    static let artistTag: UInt16 = 0x013B
    static let copyrightTag: UInt16 = 0x8298

    /// `exif` with IFD0's orientation set to `value`: the block as it was when it has none.
    static func settingOrientation(_ exif: Data, to value: UInt16) -> Data {
        guard let directory = TIFFDirectory(exif), let entry = directory.entries.first(where: { $0.tag == orientationTag }),
              entry.type == 3, entry.count == 1 else { return exif }
        var bytes = directory.bytes
        bytes[entry.field] = directory.little ? UInt8(value & 0xFF) : UInt8(value >> 8)
        bytes[entry.field + 1] = directory.little ? UInt8(value >> 8) : UInt8(value & 0xFF)
        return Data(bytes)
    }

    /// A new EXIF block with only IFD0's Artist and Copyright (imgproxy's `keep_copyright`),
    /// little-endian; `nil` when the block has neither.
    static func authorshipOnly(_ exif: Data) -> Data? {
        guard let directory = TIFFDirectory(exif) else { return nil }
        let bytes = directory.bytes
        var kept: [(tag: UInt16, value: [UInt8])] = []
        for entry in directory.entries where (entry.tag == artistTag || entry.tag == copyrightTag) && entry.type == 2 {
            guard entry.count > 0, entry.count <= 65_536, let start = entry.count <= 4 ? entry.field : directory.u32(entry.field),
                  start <= bytes.count - entry.count else { continue }
            var value = Array(bytes[start..<start + entry.count])
            if value.last != 0 { value.append(0) }  // ASCII ends with NUL
            kept.append((entry.tag, value))
        }
        guard !kept.isEmpty else { return nil }
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }
        var block: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(kept.count)
        var data: [UInt8] = []
        let dataStart = 8 + 2 + kept.count * 12 + 4
        for (tag, value) in kept.sorted(by: { $0.tag < $1.tag }) {
            block += le16(Int(tag)) + le16(2) + le32(value.count)
            if value.count <= 4 {
                block += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                block += le32(dataStart + data.count)
                data += value
                if data.count & 1 == 1 { data.append(0) }  // values start on a word boundary
            }
        }
        return Data(block + le32(0) + data)
    }
}
