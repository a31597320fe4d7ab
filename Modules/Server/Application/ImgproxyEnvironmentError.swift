import Foundation

/// An imgproxy variable that stops the start: its value does not parse, is out of range, or
/// asks for what Osprey cannot do and whose absence would change what is served.
public struct ImgproxyEnvironmentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The variable, `IMGPROXY_…`.
    public let name: String
    public let reason: String

    public var description: String { "\(name): \(reason)" }
}
