/// Reads the orientation tag from an EXIF (TIFF-structured) payload.
///
/// Defensive by construction: every offset is bounds-checked, and anything malformed gives
/// `nil` (no orientation) rather than an error — a broken EXIF block never costs the image.
public enum ExifReader {
    /// The Orientation tag's value (1...8 when valid), or `nil` when absent or unreadable.
    /// `payload` starts at the TIFF header (`II*\0` or `MM\0*`).
    public static func orientation(in payload: some Collection<UInt8>) -> Int? {
        let bytes = Array(payload)
        guard bytes.count >= 8 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let hi = u16(little ? at + 2 : at), let lo = u16(little ? at : at + 2) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<min(count, 1_000) {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(at + 2) else { return nil }
                let value: Int?
                switch type {
                case 3: value = u16(at + 8)          // SHORT, stored in the value field
                case 4: value = u32(at + 8)          // LONG, seen from some writers
                default: value = nil
                }
                // Only the eight orientations exist; any other number is a broken tag.
                return value.flatMap { (1...8).contains($0) ? $0 : nil }
            }
        }
        return nil
    }
}
