import Foundation

/// An embedded ICC colour profile, as a decoder found it in the file.
///
/// Carried on an ``Image`` when a request keeps the original colours
/// (``ColorHandling/preserve``), so that encoders write it back into their output.
public struct ColorProfile: Hashable, Sendable {
    /// The profile's bytes, exactly as embedded.
    public let data: Data
    /// The profile's own description (its `desc` tag), such as `Display P3`, when it has one.
    public let name: String?

    /// Creates a profile from its bytes and description.
    public init(data: Data, name: String? = nil) {
        self.data = data
        self.name = name
    }
}
