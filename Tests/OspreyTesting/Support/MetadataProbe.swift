import Foundation

/// Files with EXIF, XMP and IPTC made, and answers' metadata read, by Pillow
/// (`Tests/Scripts/metadata_probe.py`): what Osprey writes is checked by another reader.
public enum MetadataProbe {
    /// What Pillow reads from one file.
    public struct Blocks: Decodable, Sendable {
        public let format: String
        public let size: [Int]
        /// IFD0's tags by name (`Artist`, `Orientation`…), and `GPSLatitude`, as text.
        public let exif: [String: String]
        public let xmp: String?
        /// `record:dataset` → value.
        public let iptc: [String: String]
    }

    /// The script failed: its output says why.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static var script: String { Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/metadata_probe.py").path }

    /// `with-metadata.jpg`, `.png` and `.webp` in `folder`, from `source`'s pixels, each with
    /// EXIF Artist, Copyright, Make, Model, Orientation 6 and GPS; XMP dc:creator, dc:rights,
    /// dc:subject, xmp:CreatorTool, photoshop:City, xmpRights:Marked; IPTC (JPEG) 2:80, 2:116,
    /// 2:25, 2:90.
    public static func craft(from source: URL, into folder: URL) throws {
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", script, "craft", source.path, folder.path])
        guard outcome.status == 0 else { throw Failure(description: "metadata_probe.py craft: \(outcome.output)") }
    }

    /// Each file's blocks, in order.
    public static func read(_ files: [URL]) throws -> [Blocks] {
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", script, "read"] + files.map(\.path))
        guard outcome.status == 0 else { throw Failure(description: "metadata_probe.py read: \(outcome.output)") }
        return try outcome.output.split(separator: "\n").filter { $0.hasPrefix("{") }.map { try JSONDecoder().decode(Blocks.self, from: Data($0.utf8)) }
    }
}
