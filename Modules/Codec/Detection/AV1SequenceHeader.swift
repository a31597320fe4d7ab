import Foundation

/// The frame size an AV1 sequence header codes, read from an AVIF file's `av1C` box.
///
/// libavif trusts the container's `ispe` size and crops or pads the decoded frame to it, so a
/// file whose declared and coded sizes disagree would decode silently wrong; comparing the
/// two makes it a typed error. Only what the size needs is parsed: the reduced still-picture
/// header, or a full header without timing information (what AVIF encoders write).
enum AV1SequenceHeader {
    /// The coded maximum frame size, or `nil` when the file has no readable sequence header
    /// in an `av1C` box, or is a grid (whose `av1C` describes a tile, not the image).
    static func codedSize(in file: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard file.firstRange(of: Array("grid".utf8)) == nil, let box = file.firstRange(of: Array("av1C".utf8)) else { return nil }
        let configOBUs = box.upperBound + 4
        guard configOBUs + 2 <= file.count, file[configOBUs] >> 3 & 0xF == 1 else { return nil }  // OBU_SEQUENCE_HEADER
        var reader = BitReader(bytes: file, offset: configOBUs + 1)
        if file[configOBUs] & 0x4 != 0 {  // extension flag: one more header byte
            reader.skip(8)
        }
        if file[configOBUs] & 0x2 != 0 { _ = reader.leb128() }  // has_size_field
        return parse(&reader)
    }

    private static func parse(_ reader: inout BitReader) -> (width: Int, height: Int)? {
        reader.skip(3)  // seq_profile
        reader.skip(1)  // still_picture
        if reader.bit() == 1 {  // reduced_still_picture_header
            reader.skip(5)  // seq_level_idx[0]
        } else {
            guard reader.bit() == 0 else { return nil }  // timing_info_present_flag: not parsed here
            let initialDisplayDelay = reader.bit() == 1
            let operatingPoints = reader.bits(5) + 1
            for _ in 0..<operatingPoints {
                reader.skip(12)  // operating_point_idc
                if reader.bits(5) > 7 { reader.skip(1) }  // seq_level_idx, seq_tier
                if initialDisplayDelay, reader.bit() == 1 { reader.skip(4) }
            }
        }
        let widthBits = reader.bits(4) + 1, heightBits = reader.bits(4) + 1
        let width = reader.bits(widthBits) + 1, height = reader.bits(heightBits) + 1
        return reader.overrun ? nil : (width, height)
    }

    /// Reads bits most significant first.
    private struct BitReader {
        let bytes: UnsafeRawBufferPointer
        var position: Int  // in bits
        var overrun = false

        init(bytes: UnsafeRawBufferPointer, offset: Int) {
            self.bytes = bytes
            position = offset * 8
        }

        mutating func bit() -> Int {
            guard position / 8 < bytes.count else { overrun = true; return 0 }
            defer { position += 1 }
            return Int(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
        }

        mutating func bits(_ count: Int) -> Int { (0..<count).reduce(0) { value, _ in value << 1 | bit() } }

        mutating func skip(_ count: Int) { position += count }

        mutating func leb128() -> Int {
            var value = 0
            for index in 0..<8 {
                let byte = bits(8)
                value |= (byte & 0x7F) << (7 * index)
                if byte & 0x80 == 0 { break }
            }
            return value
        }
    }
}
