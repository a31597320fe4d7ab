/// The first directory (IFD0) of a TIFF structure, as EXIF blocks hold one: every offset
/// bounds-checked, at most 1,000 entries, `nil` for anything that is not a TIFF header.
struct TIFFDirectory {
    /// One entry: its tag, type, count, and where its 4-byte value field starts.
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        let field: Int
    }

    let bytes: [UInt8]
    /// Intel byte order (`II`), else Motorola (`MM`).
    let little: Bool
    private(set) var entries: [Entry] = []
    /// Where the directory after this one starts (EXIF's IFD1, the thumbnail's), if any.
    private(set) var nextDirectory: Int?

    /// IFD0 of `payload`; or, given `directory`, the directory at that offset (EXIF's own,
    /// which IFD0's tag 0x8769 points to).
    init?(_ payload: some Collection<UInt8>, directory: Int? = nil) {
        bytes = Array(payload)
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        guard u16(2) == 42, let ifd = directory ?? u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<min(count, 1_000) {
            let at = ifd + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let count = u32(at + 4), at + 12 <= bytes.count else { break }
            entries.append(Entry(tag: UInt16(tag), type: UInt16(type), count: count, field: at + 8))
        }
        if entries.count == count, let next = u32(ifd + 2 + count * 12), next > 0, next != ifd { nextDirectory = next }
    }

    /// The single SHORT or LONG value of the entry tagged `tag`.
    func integer(_ tag: UInt16) -> Int? {
        guard let entry = entries.first(where: { $0.tag == tag }), entry.count == 1 else { return nil }
        return switch entry.type {
        case 3: u16(entry.field)  // SHORT, stored in the value field
        case 4: u32(entry.field)  // LONG
        default: nil
        }
    }

    /// The 16-bit value at `at`, in the structure's byte order.
    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    /// The 32-bit value at `at`, in the structure's byte order.
    func u32(_ at: Int) -> Int? {
        guard let hi = u16(little ? at + 2 : at), let lo = u16(little ? at : at + 2) else { return nil }
        return hi << 16 | lo
    }
}
