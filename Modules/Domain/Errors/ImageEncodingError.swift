/// Why an ``Image`` could not be encoded.
public enum ImageEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The encoder does not write this format.
    case unsupportedFormat(ImageFormat)
    /// The encoder failed; `detail` is its message.
    case failed(ImageFormat, detail: String)

    public var description: String {
        switch self {
        case let .unsupportedFormat(format): "cannot encode \(format)"
        case let .failed(format, detail): "encoding \(format) failed: \(detail)"
        }
    }
}
