import Foundation
import OspreyCodec
import OspreyDomain

/// Where a batch writes each output: the output folder, the input's subfolder, and a name
/// from a pattern with `{name}` (the input's name without extension), `{width}`, `{height}`
/// (the size asked for) and `{ext}`.
struct OutputNaming {
    static let defaultPattern = "{name}_{width}x{height}.{ext}"
    static let placeholders = ["{name}", "{width}", "{height}", "{ext}"]

    let folder: String
    let pattern: String
    /// The format asked for, or `nil` for the input's own where Osprey writes it.
    let format: ImageFormat?

    /// The format `input` is written in: the one asked for, else the input's (by extension)
    /// when Osprey encodes it, else PNG, which keeps every pixel and alpha.
    func format(for input: String) -> ImageFormat {
        format ?? ConvertCommand.format(ofPath: input) ?? .png
    }

    /// The output path of `item` at `size` (`nil`: the image's own size, named by the input's).
    func path(for item: ConvertInputs.Item, size: PixelSize?) -> String {
        let input = URL(fileURLWithPath: item.path)
        let format = format(for: item.path)
        let ext = format.fileExtension
        let width = size.map { "\($0.width)" } ?? "orig"
        let height = size.map { "\($0.height)" } ?? "orig"
        let name = pattern
            .replacingOccurrences(of: "{name}", with: input.deletingPathExtension().lastPathComponent)
            .replacingOccurrences(of: "{width}", with: width)
            .replacingOccurrences(of: "{height}", with: height)
            .replacingOccurrences(of: "{ext}", with: ext)
        return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(item.subfolder, isDirectory: true)
            .appendingPathComponent(name).standardizedFileURL.path
    }
}
