import Foundation

/// An IPTC-IIM block's application record (2) as text, for imgproxy's `/info` `iptc` option:
/// each dataset by its IIM title (`Keywords`, `Copyright Notice`), the repeatable ones as
/// lists, in the order met; binary datasets are left out, text read as UTF-8.
public enum IPTCFields {
    /// A dataset's title, its values, and whether the standard lets it repeat.
    public struct Field: Hashable, Sendable {
        public let title: String
        public let values: [String]
        public let repeatable: Bool
    }

    /// The application record's known text datasets.
    public static func fields(of iptc: Data) -> [Field] {
        let bytes = [UInt8](iptc)
        var values: [UInt8: [String]] = [:]
        var order: [UInt8] = []
        var offset = 0
        while offset + 5 <= bytes.count, bytes[offset] == 0x1C {
            let record = bytes[offset + 1], dataset = bytes[offset + 2]
            var length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            var header = 5
            if length & 0x8000 != 0 {
                let size = length & 0x7FFF
                guard size <= 4, offset + 5 + size <= bytes.count else { break }
                length = bytes[offset + 5..<offset + 5 + size].reduce(0) { $0 << 8 | Int($1) }
                header += size
            }
            let end = offset + header + length
            guard end <= bytes.count else { break }
            if record == 2, titles[dataset] != nil {
                let text = String(decoding: bytes[(offset + header)..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty {
                    if values[dataset] == nil { order.append(dataset) }
                    values[dataset, default: []].append(text)
                }
            }
            offset = end
        }
        return order.map { dataset in
            let (title, repeatable) = titles[dataset]!
            return Field(title: title, values: repeatable ? values[dataset]! : [values[dataset]!.last!], repeatable: repeatable)
        }
    }

    /// IIM's application record: dataset → title, and whether it repeats.
    static let titles: [UInt8: (String, Bool)] = [
        3: ("Object Type Reference", false), 4: ("Object Attribute Reference", true), 5: ("Object Name", false),
        7: ("Edit Status", false), 8: ("Editorial Update", false), 10: ("Urgency", false), 12: ("Subject Reference", true),
        15: ("Category", false), 20: ("Supplemental Category", true), 22: ("Fixture Identifier", false), 25: ("Keywords", true),
        26: ("Content Location Code", true), 27: ("Content Location Name", true), 30: ("Release Date", false),
        35: ("Release Time", false), 37: ("Expiration Date", false), 38: ("Expiration Time", false),
        40: ("Special Instructions", false), 42: ("Action Advised", false), 45: ("Reference Service", true),
        47: ("Reference Date", true), 50: ("Reference Number", true), 55: ("Date Created", false), 60: ("Time Created", false),
        62: ("Digital Creation Date", false), 63: ("Digital Creation Time", false), 65: ("Originating Program", false),
        70: ("Program Version", false), 75: ("Object Cycle", false), 80: ("By-line", true), 85: ("By-line Title", true),
        90: ("City", false), 92: ("Sub-location", false), 95: ("Province/State", false), 100: ("Country Code", false),
        101: ("Country Name", false), 103: ("Original Transmission Reference", false), 105: ("Headline", false),
        110: ("Credit", false), 115: ("Source", false), 116: ("Copyright Notice", false), 118: ("Contact", true),
        120: ("Caption/Abstract", false), 122: ("Writer/Editor", true), 130: ("Image Type", false),
        131: ("Image Orientation", false), 135: ("Language Identifier", false),
    ]
}
