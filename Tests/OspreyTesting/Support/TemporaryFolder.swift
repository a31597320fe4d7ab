import Foundation

/// Folders tests write files into, for Osprey and the reference tools to read: each new and
/// empty, so that tests running at once never meet. The test removes its folder when done.
public enum TemporaryFolder {
    /// Creates `osprey-<label>-<UUID>` under the system's temporary directory.
    public static func make(_ label: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
