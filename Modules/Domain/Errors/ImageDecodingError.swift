/// Why bytes could not be decoded into an ``Image``.
public enum ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not an image at all; `prefix` shows how they start (for example `<html`).
    case notAnImage(prefix: String)
    /// The format is recognised but not decoded by Osprey (GIF, HEIC, AVIF …).
    case unsupportedFormat(ImageFormat, detail: String? = nil)
    /// The header declares more pixels than the limit allows.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// An animation has more frames than the limit allows (all frames were asked for).
    case tooManyFrames(count: Int, limit: Int)
    /// An animation's canvas times its frames is more pixels than the limit allows.
    case animationTooLarge(pixels: Int, limit: Int)
    /// The input is larger than the byte limit allows.
    case tooManyBytes(count: Int64, limit: Int64)
    /// The data is damaged or truncated; `detail` is the codec's message.
    case corrupt(ImageFormat, detail: String)
    /// The input file could not be read.
    case unreadable(path: String, reason: String)
    /// The calling task was cancelled, and the decoder stopped between rows or frames.
    case cancelled

    /// Shows the first bytes of `data` as text where printable, for ``notAnImage(prefix:)``.
    public static func describePrefix<C: Collection<UInt8>>(_ data: C, length: Int = 16) -> String {
        String(data.prefix(length).map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
    }

    public var description: String {
        switch self {
        case let .notAnImage(prefix): "not an image: the data starts with `\(prefix)`"
        case let .unsupportedFormat(format, detail): "unsupported format: \(format)" + (detail.map { " (\($0))" } ?? "")
        case let .tooManyPixels(w, h, limit): "image is \(w)x\(h), over the limit of \(limit / 1_000_000) megapixels"
        case let .tooManyFrames(count, limit): "animation has \(count) frames or more, over the limit of \(limit)"
        case let .animationTooLarge(pixels, limit): "animation draws \(pixels) pixels over all its frames, over the limit of \(limit)"
        case let .tooManyBytes(count, limit): "input is \(count) bytes, over the limit of \(limit) bytes"
        case let .corrupt(format, detail): "corrupt \(format) data: \(detail)"
        case let .unreadable(path, reason): "cannot read \(path): \(reason)"
        case .cancelled: "decoding stopped: the work was cancelled"
        }
    }
}

extension ImageDecodingError {
    /// Throws ``cancelled`` once the calling task is cancelled: a decoder calls it between
    /// bands of rows and between frames, so that work nobody waits for stops.
    @inlinable
    public static func checkCancellation() throws(ImageDecodingError) {
        if Task.isCancelled { throw .cancelled }
    }
}
