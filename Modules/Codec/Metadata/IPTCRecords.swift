import Foundation

/// IPTC-IIM datasets (`0x1C`, record, dataset, length, value).
enum IPTCRecords {
    /// The application record's By-line (80), Credit (110) and Copyright Notice (116) kept,
    /// its other datasets dropped, other records kept, as imgproxy's `keep_copyright`;
    /// `nil` when nothing is left or the data is broken.
    static func authorshipOnly(_ iptc: Data) -> Data? {
        let bytes = [UInt8](iptc)
        var kept: [UInt8] = []
        var offset = 0
        var keptApplication = false
        while offset + 5 <= bytes.count, bytes[offset] == 0x1C {
            let record = bytes[offset + 1], dataset = bytes[offset + 2]
            var length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            var header = 5
            if length & 0x8000 != 0 {  // an extended dataset: the next N bytes are the length
                let size = length & 0x7FFF
                guard size <= 4, offset + 5 + size <= bytes.count else { return nil }
                length = bytes[offset + 5..<offset + 5 + size].reduce(0) { $0 << 8 | Int($1) }
                header += size
            }
            let end = offset + header + length
            guard length >= 0, end <= bytes.count else { return nil }
            if record != 2 || [80, 110, 116].contains(dataset) {
                kept += bytes[offset..<end]
                keptApplication = keptApplication || record == 2
            }
            offset = end
        }
        return keptApplication ? Data(kept) : nil
    }
}
