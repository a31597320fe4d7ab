import Foundation

/// Photoshop's image resources (`8BIM` blocks), as a JPEG's APP13 segment holds IPTC in them.
enum PhotoshopResources {
    static let iptcID: UInt16 = 0x0404

    /// The IPTC-IIM data of resource 0x0404 in `resources` (after `Photoshop 3.0\0`).
    static func iptc(in resources: some Collection<UInt8>) -> Data? {
        let bytes = Array(resources)
        var offset = 0
        while offset + 12 <= bytes.count, bytes[offset..<offset + 4].elementsEqual("8BIM".utf8) {
            let id = UInt16(bytes[offset + 4]) << 8 | UInt16(bytes[offset + 5])
            let nameLength = Int(bytes[offset + 6])
            let nameField = (1 + nameLength + 1) & ~1  // a Pascal string padded to even
            let sizeAt = offset + 6 + nameField
            guard sizeAt + 4 <= bytes.count else { return nil }
            let size = bytes[sizeAt..<sizeAt + 4].reduce(0) { $0 << 8 | Int($1) }
            let dataAt = sizeAt + 4
            guard size >= 0, size <= bytes.count - dataAt else { return nil }
            if id == iptcID { return size == 0 ? nil : Data(bytes[dataAt..<dataAt + size]) }
            offset = dataAt + size + (size & 1)
        }
        return nil
    }

    /// An APP13 payload holding `iptc` as resource 0x0404.
    static func segment(holding iptc: Data) -> Data {
        var payload = Data(MetadataReader.photoshopPrefix)
        payload.append(contentsOf: Array("8BIM".utf8) + [0x04, 0x04, 0, 0])
        let size = UInt32(iptc.count)
        payload.append(contentsOf: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        payload.append(iptc)
        if iptc.count & 1 == 1 { payload.append(0) }
        return payload
    }
}
