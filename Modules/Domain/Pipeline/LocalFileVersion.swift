import Foundation

/// A local file's size and modification time, put in its cache keys, so that a file changed
/// in place is a new image rather than the one memory still holds.
enum LocalFileVersion {
    /// `nil` for a remote source, or a file that cannot be looked at (its load will say why).
    static func of(_ source: ImageSource) -> String? {
        let path: String
        switch source {
        case .file(let filePath): path = filePath
        case .url(let url) where url.isFileURL: path = url.path
        case .url: return nil
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date else { return nil }
        return "\(size)-\(modified.timeIntervalSince1970)"
    }
}
