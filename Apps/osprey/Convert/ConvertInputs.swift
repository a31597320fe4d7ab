import Foundation
import OspreyCodec
import OspreyDomain

/// The images a batch converts: named files, the images in named folders (in their
/// subfolders too with `--recursive`), and the paths listed in a file or on standard input.
struct ConvertInputs {
    /// One image to convert, with the folder its outputs go to, relative to the output folder.
    struct Item: Hashable {
        let path: String
        let subfolder: String
    }

    /// The extensions a folder's files must have to be taken (named files are always taken).
    static let imageExtensions = ImageFormat.knownFileExtensions

    /// The items in the order given, folders' files sorted by path, each path once.
    /// - Throws: ``Failure`` when a folder or the list cannot be read.
    static func collect(_ arguments: [String], recursive: Bool, listFile: String?) throws(Failure) -> [Item] {
        var items: [Item] = []
        var seen: Set<String> = []
        func add(_ item: Item) {
            if seen.insert(item.path).inserted { items.append(item) }
        }
        var named = arguments
        if let listFile { named += try lines(of: listFile) }
        for path in named {
            // A missing file is converted like any other and fails then: reported, not fatal.
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                for item in try images(in: path, recursive: recursive) { add(item) }
            } else {
                add(Item(path: path, subfolder: ""))
            }
        }
        return items
    }

    /// The image files in `folder`, hidden ones left out.
    private static func images(in folder: String, recursive: Bool) throws(Failure) -> [Item] {
        let root = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
        let options: FileManager.DirectoryEnumerationOptions = recursive
            ? [.skipsHiddenFiles] : [.skipsHiddenFiles, .skipsSubdirectoryDescendants]
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: options) else { throw .unreadable(folder) }
        var items: [Item] = []
        for case let url as URL in enumerator {
            guard imageExtensions.contains(url.pathExtension.lowercased()),
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = url.standardizedFileURL.path.dropFirst(root.path.count).drop { $0 == "/" }
            let subfolder = (String(relative) as NSString).deletingLastPathComponent
            items.append(Item(path: url.path, subfolder: subfolder))
        }
        return items.sorted { $0.path < $1.path }
    }

    /// The non-empty lines of `path`, or of standard input for `-`.
    private static func lines(of path: String) throws(Failure) -> [String] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
            data = contents
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    struct Failure: Error, CustomStringConvertible {
        let path: String
        static func unreadable(_ path: String) -> Self { Self(path: path) }
        var description: String { "cannot read \(path)" }
    }
}
