import Foundation
import Osprey

/// One image of the gallery's folder: what its header says, and where it came from (a line
/// of the folder's `SOURCES.tsv`: file, credit, how it was made).
struct GallerySample: Sendable {
    let name: String
    let info: ImageInfo
    /// The photographer and licence, or how the file was made from a photograph.
    let note: String

    /// The images in `folder` that Osprey can read, sorted by name, with their notes.
    static func all(in folder: URL, codec: ImageCodec) throws -> [GallerySample] {
        let notes = Self.notes(in: folder)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().compactMap { name in
            guard !name.hasPrefix("."), name != "SOURCES.tsv" else { return nil }
            guard let info = try? codec.info(.file(path: folder.appendingPathComponent(name).path)) else { return nil }
            return GallerySample(name: name, info: info, note: notes[name] ?? "")
        }
    }

    /// `SOURCES.tsv`: a file name, a tab, its note, a line each.
    private static func notes(in folder: URL) -> [String: String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("SOURCES.tsv"), encoding: .utf8)) ?? ""
        return Dictionary(text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
    }

    /// What the source is: format, size, colour profile and frames.
    var summary: String {
        var parts = ["\(info.format.rawValue.uppercased()) \(info.width)×\(info.height)"]
        if let profile = info.colorProfile { parts.append(info.convertsToSRGB ? "\(profile) → sRGB" : profile) }
        if info.frameCount > 1 { parts.append("\(info.frameCount) frames") }
        return parts.joined(separator: ", ")
    }
}
