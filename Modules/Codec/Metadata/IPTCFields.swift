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
        // What was read before a broken dataset still counts, as for the other blocks.
        for dataset in IPTCRecords.datasets(bytes).datasets where dataset.record == 2 && titles[dataset.number] != nil {
            let text = String(decoding: bytes[dataset.value..<dataset.end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            if values[dataset.number] == nil { order.append(dataset.number) }
            values[dataset.number, default: []].append(text)
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
