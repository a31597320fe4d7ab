/// Reads the orientation tag from an EXIF (TIFF-structured) payload.
///
/// Defensive by construction: every offset is bounds-checked, and anything malformed gives
/// `nil` (no orientation) rather than an error — a broken EXIF block never costs the image.
public enum ExifReader {
    /// The Orientation tag's value (1...8 when valid), or `nil` when absent or unreadable.
    /// `payload` starts at the TIFF header (`II*\0` or `MM\0*`).
    public static func orientation(in payload: some Collection<UInt8>) -> Int? {
        // Only the eight orientations exist; any other number is a broken tag.
        TIFFDirectory(payload)?.integer(0x0112).flatMap { (1...8).contains($0) ? $0 : nil }
    }

    /// Where the JPEG thumbnail a camera writes in IFD1 lies in `payload` (the TIFF header
    /// onwards), or `nil` when there is none or it is not a whole JPEG stream.
    public static func thumbnailRange(in payload: some Collection<UInt8>) -> Range<Int>? {
        guard let root = TIFFDirectory(payload), let next = root.nextDirectory,
              let directory = TIFFDirectory(payload, directory: next),
              (directory.integer(0x0103) ?? 6) == 6,  // Compression: JPEG, where it is said
              let start = directory.integer(0x0201), let length = directory.integer(0x0202), length > 4,
              start + length <= directory.bytes.count,
              directory.bytes[start] == 0xFF, directory.bytes[start + 1] == 0xD8 else { return nil }
        return start..<(start + length)
    }
}
