import Foundation
import OspreyDomain

/// Puts metadata blocks into a file an encoder wrote: JPEG segments after `SOI` (and JFIF's
/// `APP0`), PNG chunks before the first `IDAT`. A block too large for its container (a JPEG
/// segment holds 65,533 bytes) is left out, as libvips leaves it.
enum MetadataWriter {
    /// `jpeg` with `metadata`'s EXIF and XMP in `APP1` segments and IPTC in `APP13`.
    static func jpeg(_ jpeg: Data, _ metadata: ImageMetadata?) -> Data {
        guard let metadata, jpeg.count > 4 else { return jpeg }
        var segments = Data()
        func add(_ marker: UInt8, _ payload: Data) {
            let length = payload.count + 2
            guard length <= 0xFFFF else { return }
            segments.append(contentsOf: [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)])
            segments.append(payload)
        }
        if let exif = metadata.exif { add(0xE1, Data(MetadataReader.exifPrefix) + exif) }
        if let xmp = metadata.xmp { add(0xE1, Data(MetadataReader.xmpPrefix) + xmp) }
        if let iptc = metadata.iptc { add(0xED, PhotoshopResources.segment(holding: iptc)) }
        var at = jpeg.startIndex + 2
        // After JFIF's APP0, which readers expect first.
        if jpeg.count > 6, jpeg[at] == 0xFF, jpeg[at + 1] == 0xE0 { at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])) }
        guard at <= jpeg.endIndex else { return jpeg }
        var result = Data(jpeg[..<at])
        result.append(segments)
        result.append(jpeg[at...])
        return result
    }

    /// `png` with `metadata`'s EXIF in an `eXIf` chunk and XMP in an `iTXt` chunk (keyword
    /// `XML:com.adobe.xmp`), before the first `IDAT`; PNG has no place for IPTC.
    static func png(_ png: Data, _ metadata: ImageMetadata?) -> Data {
        guard let metadata else { return png }
        var chunks = Data()
        if let exif = metadata.exif { chunks.append(chunk("eXIf", exif)) }
        if let xmp = metadata.xmp { chunks.append(chunk("iTXt", Data("XML:com.adobe.xmp".utf8) + Data([0, 0, 0, 0, 0]) + xmp)) }
        return inserting(chunks, into: png)
    }

    /// `chunks` put before the first `IDAT` of `png`, where ancillary chunks about the image go.
    static func inserting(_ chunks: Data, into png: Data) -> Data {
        guard !chunks.isEmpty, let at = firstIDAT(in: png) else { return png }
        var result = Data(png[..<at])
        result.append(chunks)
        result.append(png[at...])
        return result
    }

    /// Where the first `IDAT` chunk starts, walking the chunks from the signature.
    private static func firstIDAT(in png: Data) -> Data.Index? {
        var at = png.startIndex + 8
        while at + 8 <= png.endIndex {
            let length = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[at + 4..<at + 8].elementsEqual("IDAT".utf8) { return at }
            at += 12 + length
        }
        return nil
    }

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: Data) -> Data {
        let length = UInt32(data.count)
        var chunk = Data([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        let body = Data(type.utf8) + data
        chunk.append(body)
        let crc = crc32(body)
        chunk.append(contentsOf: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return chunk
    }

    private static let crcTable: [UInt32] = (0..<256).map { byte in
        (0..<8).reduce(UInt32(byte)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func crc32(_ data: Data) -> UInt32 {
        ~data.reduce(~UInt32(0)) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }
}
