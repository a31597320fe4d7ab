import Foundation
import OspreyDomain

/// The layout of a cache folder: `index.sqlite`, `data/ab/<sha256>-<unique>`, `tmp/`.
struct Paths: Sendable {
    let root: URL
    /// `data` as a path string: joining strings on the hot read path avoids URL parsing.
    let dataPath: String

    init(root: URL) {
        self.root = root
        dataPath = root.appendingPathComponent("data", isDirectory: true).path
    }
    var index: URL { root.appendingPathComponent("index.sqlite") }
    var data: URL { root.appendingPathComponent("data", isDirectory: true) }
    var temporaryFolder: URL { root.appendingPathComponent("tmp", isDirectory: true) }

    /// A fresh name for `key`'s bytes: its hash sharded by the first two hex digits, plus a
    /// unique suffix so a replacement never overwrites the file the index still points to.
    func fileName(for key: CacheKey) -> String {
        let hash = KeyHash.hex(of: key)
        return "\(hash.prefix(2))/\(hash)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    func file(_ name: String) -> URL { URL(fileURLWithPath: filePath(name)) }

    func filePath(_ name: String) -> String { dataPath + "/" + name }

    func temporary() -> URL { temporaryFolder.appendingPathComponent("\(getpid())-\(UUID().uuidString)") }
}
