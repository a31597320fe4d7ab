/// Why a processor could not transform an image.
public enum ImageProcessingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The processor's parameters cannot apply to this image (for example a crop outside it).
    case invalidParameters(processor: String, reason: String)
    /// The processor does not handle this pixel format.
    case unsupportedPixelFormat(processor: String, PixelFormat)

    public var description: String {
        switch self {
        case let .invalidParameters(processor, reason): "\(processor): \(reason)"
        case let .unsupportedPixelFormat(processor, format): "\(processor) does not handle \(format.rawValue) pixels"
        }
    }
}
