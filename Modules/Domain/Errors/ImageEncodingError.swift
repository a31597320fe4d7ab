/// Why an ``Image`` could not be encoded.
public enum ImageEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The encoder does not write this format.
    case unsupportedFormat(ImageFormat)
    /// The encoder failed; `detail` is its message.
    case failed(ImageFormat, detail: String)
    /// The calling task was cancelled before the encoder started.
    case cancelled

    public var description: String {
        switch self {
        case let .unsupportedFormat(format): "cannot encode \(format)"
        case let .failed(format, detail): "encoding \(format) failed: \(detail)"
        case .cancelled: "encoding stopped: the work was cancelled"
        }
    }
}

extension ImageEncodingError {
    /// Throws ``cancelled`` once the calling task is cancelled.
    @inlinable
    public static func checkCancellation() throws(ImageEncodingError) {
        if Task.isCancelled { throw .cancelled }
    }
}
