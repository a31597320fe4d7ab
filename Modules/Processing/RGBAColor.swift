/// A colour with 8-bit straight (not premultiplied) channels, for tints and overlays.
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    /// Creates a colour; opaque by default.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#rrggbb` or `#rrggbbaa` (the `#` is optional); `nil` otherwise.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xFF), blue: UInt8(full >> 8 & 0xFF), alpha: UInt8(full & 0xFF))
    }

    /// `#rrggbbaa`, as it appears in processor identifiers.
    public var description: String {
        "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
