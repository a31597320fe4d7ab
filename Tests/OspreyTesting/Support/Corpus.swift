import Foundation

/// The public test images in `../shared/corpus`, never copied into the repository.
///
/// Found at `OSPREY_CORPUS` when that is set, else at `shared/corpus` beside the checkout.
public enum Corpus {
    /// The corpus folder, or `nil` when it is absent.
    public static var root: URL? {
        let candidate: URL
        if let path = ProcessInfo.processInfo.environment["OSPREY_CORPUS"], !path.isEmpty {
            candidate = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            candidate = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
        }
        return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) ? candidate : nil
    }

    /// The checkout this file belongs to.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath)  // …/Tests/OspreyTesting/Support/Corpus.swift
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The file at `relativePath` inside the corpus.
    /// - Throws: ``CorpusError`` saying clearly what is missing and where it was looked for.
    public static func file(_ relativePath: String) throws -> URL {
        guard let root else { throw CorpusError.corpusMissing(lookedAt: lookedAt) }
        let url = root.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { throw CorpusError.fileMissing(url.path) }
        return url
    }

    /// Every file below `folder` inside the corpus, sorted by path.
    public static func files(in folder: String) throws -> [URL] {
        guard let root else { throw CorpusError.corpusMissing(lookedAt: lookedAt) }
        let base = root.appendingPathComponent(folder)
        let names = try FileManager.default.subpathsOfDirectory(atPath: base.path)
        return names.sorted().map { base.appendingPathComponent($0) }.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    private static var lookedAt: String {
        ProcessInfo.processInfo.environment["OSPREY_CORPUS"]
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    }
}

/// Why a corpus file could not be found.
public enum CorpusError: Error, CustomStringConvertible {
    /// The corpus folder is absent.
    case corpusMissing(lookedAt: String)
    /// One file is absent.
    case fileMissing(String)

    public var description: String {
        switch self {
        case .corpusMissing(let path): "test corpus not found at \(path): set OSPREY_CORPUS to the folder holding MANIFEST.tsv"
        case .fileMissing(let path): "test corpus file missing: \(path)"
        }
    }
}
