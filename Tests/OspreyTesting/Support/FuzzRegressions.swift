import Foundation

/// The inputs `make fuzz` once crashed on, kept in `Tests/Fixtures/fuzz/<target>/` and run
/// by the tests of the code they reached.
public enum FuzzRegressions {
    /// The folder of `target`'s inputs in this checkout.
    public static func folder(_ target: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/\(target)")
    }

    /// Every input kept for `target`, sorted by name.
    public static func files(_ target: String) -> [URL] {
        let folder = folder(target)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }
}
