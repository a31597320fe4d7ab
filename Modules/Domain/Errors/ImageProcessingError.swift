/// Why a processor could not transform an image.
public enum ImageProcessingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The processor's parameters cannot apply to this image (for example a crop outside it).
    case invalidParameters(processor: String, reason: String)
    /// The processor does not handle this pixel format.
    case unsupportedPixelFormat(processor: String, PixelFormat)
    /// The calling task was cancelled, and the processor stopped between rows.
    case cancelled

    public var description: String {
        switch self {
        case let .invalidParameters(processor, reason): "\(processor): \(reason)"
        case let .unsupportedPixelFormat(processor, format): "\(processor) does not handle \(format.rawValue) pixels"
        case .cancelled: "processing stopped: the work was cancelled"
        }
    }
}

extension ImageProcessingError {
    /// Throws ``cancelled`` once the calling task is cancelled: a processor's long loops call
    /// it every few rows, so that work nobody waits for stops.
    @inlinable
    public static func checkCancellation() throws(ImageProcessingError) {
        if Task.isCancelled { throw .cancelled }
    }
}
