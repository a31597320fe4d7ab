import Foundation

/// Encoded image bytes as a decoder reads them: in memory, or from a file read incrementally
/// so that a large file is never held whole.
public enum ImageInput: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// A file on disk.
    case file(path: String)
}
