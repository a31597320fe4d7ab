/// Why an ``Image`` could not be made from a buffer.
public enum ImageGeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Width or height is zero or negative.
    case emptySize(width: Int, height: Int)
    /// `bytesPerRow` cannot hold a row of pixels.
    case rowTooShort(bytesPerRow: Int, needed: Int)
    /// The buffer's length is not `bytesPerRow × height`.
    case bufferSizeMismatch(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case let .emptySize(w, h): "an image needs a positive size, got \(w)x\(h)"
        case let .rowTooShort(row, needed): "bytesPerRow \(row) is shorter than a row of pixels (\(needed) bytes)"
        case let .bufferSizeMismatch(expected, actual): "pixel buffer holds \(actual) bytes, expected \(expected)"
        }
    }
}
