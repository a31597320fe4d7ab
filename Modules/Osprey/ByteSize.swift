import Foundation

/// A size as Osprey's programs and settings take it: `64MB`, `512KB`, `1.5GB`, `2GiB`, or a
/// bare number of megabytes (`32`). KB, MB and GB are powers of 1000; KiB, MiB and GiB powers
/// of 1024; `B` names bytes.
public struct ByteSize: Sendable, Hashable {
    public let bytes: Int

    /// `text` read as a size; `nil` when it is not one, is negative or does not fit.
    public init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("KIB", 1024), ("MIB", 1_048_576), ("GIB", 1_073_741_824), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("B", 1)]
        let (number, scale) = units.first { text.hasSuffix($0.0) }.map { (String(text.dropLast($0.0.count)), $0.1) } ?? (text, 1e6)
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value >= 0, value * scale < 9e18 else { return nil }
        bytes = Int(value * scale)
    }
}
