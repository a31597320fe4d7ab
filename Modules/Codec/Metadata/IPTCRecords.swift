import Foundation

/// IPTC-IIM datasets (`0x1C`, record, dataset, length, value).
enum IPTCRecords {
    /// One dataset: its record and number, where it starts, where its value starts, where it ends.
    struct Dataset {
        let record: UInt8
        let number: UInt8
        let start: Int
        let value: Int
        let end: Int
    }

    /// The datasets of `bytes` in order, up to one that is broken (its length past the end),
    /// and whether one was.
    static func datasets(_ bytes: [UInt8]) -> (datasets: [Dataset], broken: Bool) {
        var datasets: [Dataset] = []
        var offset = 0
        while offset + 5 <= bytes.count, bytes[offset] == 0x1C {
            var length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            var header = 5
            if length & 0x8000 != 0 {  // an extended dataset: the next N bytes are the length
                let size = length & 0x7FFF
                guard size <= 4, offset + 5 + size <= bytes.count else { return (datasets, true) }
                length = bytes[offset + 5..<offset + 5 + size].reduce(0) { $0 << 8 | Int($1) }
                header += size
            }
            let end = offset + header + length
            guard length >= 0, end <= bytes.count else { return (datasets, true) }
            datasets.append(Dataset(record: bytes[offset + 1], number: bytes[offset + 2], start: offset, value: offset + header, end: end))
            offset = end
        }
        return (datasets, false)
    }

    /// The application record's By-line (80), Credit (110) and Copyright Notice (116) kept,
    /// its other datasets dropped, other records kept, as imgproxy's `keep_copyright`;
    /// `nil` when nothing is left or the data is broken.
    static func authorshipOnly(_ iptc: Data) -> Data? {
        let bytes = [UInt8](iptc)
        let (datasets, broken) = datasets(bytes)
        guard !broken else { return nil }
        let kept = datasets.filter { $0.record != 2 || [80, 110, 116].contains($0.number) }
        guard kept.contains(where: { $0.record == 2 }) else { return nil }
        return Data(kept.flatMap { bytes[$0.start..<$0.end] })
    }
}
