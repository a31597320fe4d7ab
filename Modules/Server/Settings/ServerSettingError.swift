import Foundation

/// A setting that stops the start: its value does not parse or is out of range, or it asks
/// for what Osprey cannot do and whose absence would change what is served.
public struct ServerSettingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting as it was given: `--quality`, `OSPREY_QUALITY` or imgproxy's variable.
    public let name: String
    public let reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    public var description: String { "\(name): \(reason)" }
}

/// An imgproxy variable that stops the start (a ``ServerSettingError`` named `IMGPROXY_…`).
public typealias ImgproxyEnvironmentError = ServerSettingError
