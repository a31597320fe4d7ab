/// Reads the orientation tag from an EXIF (TIFF-structured) payload.
///
/// Defensive by construction: every offset is bounds-checked, and anything malformed gives
/// `nil` (no orientation) rather than an error — a broken EXIF block never costs the image.
public enum ExifReader {
    /// The Orientation tag's value (1...8 when valid), or `nil` when absent or unreadable.
    /// `payload` starts at the TIFF header (`II*\0` or `MM\0*`).
    public static func orientation(in payload: some Collection<UInt8>) -> Int? {
        guard let directory = TIFFDirectory(payload), let entry = directory.entries.first(where: { $0.tag == 0x0112 }) else { return nil }
        let value: Int? = switch entry.type {
        case 3: directory.u16(entry.field)  // SHORT, stored in the value field
        case 4: directory.u32(entry.field)  // LONG, seen from some writers
        default: nil
        }
        // Only the eight orientations exist; any other number is a broken tag.
        return value.flatMap { (1...8).contains($0) ? $0 : nil }
    }
}
