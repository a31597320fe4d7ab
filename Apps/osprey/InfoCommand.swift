import ArgumentParser
import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels

/// `osprey info`: what an image file's header says.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image's format, size, orientation, alpha, frames, loop count and colour profile, and its placeholders.",
        discussion: """
            The size is as displayed, after EXIF orientation. The format is read from the \
            file's magic bytes, never from its extension.

            Example:
              osprey info photo.jpg --json
              osprey info photo.jpg --placeholder   # BlurHash, ThumbHash, average colour
            """
    )

    @Argument(help: "The image file.")
    var file: String

    @Flag(help: "Print one JSON object with keys format, width, height, orientation, hasAlpha, frameCount, loopCount, colorProfile, convertsToSRGB.")
    var json = false

    @Flag(help: "Also make the placeholders a page shows while the image loads, from a 100 px preview (an embedded thumbnail, a progressive JPEG's first scans, else a reduced decode): blurHash (4 × 3), thumbHash (base64) and average (#RRGGBBAA).")
    var placeholder = false

    func run() throws {
        let info: ImageInfo
        var placeholder: ImagePlaceholder?
        do {
            let codec = ImageCodec()
            info = try codec.info(.file(path: file))
            if self.placeholder {
                // A camera's thumbnail or a progressive JPEG's first scans serve where there are.
                let options = DecodingOptions(targetSize: PixelSize(width: 100, height: 100))
                if let preview = try codec.decodePreview(.file(path: file), options: options) {
                    placeholder = ImagePlaceholder(preview)
                } else {
                    placeholder = ImagePlaceholder(try codec.decode(.file(path: file), options: options))
                }
            }
        } catch {
            throw ExitStatus.fail(error)
        }
        let average = placeholder.map { [$0.average.red, $0.average.green, $0.average.blue, $0.average.alpha].map { String(format: "%02x", $0) }.joined() }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let encoded = try encoder.encode(info)
            guard let placeholder, let average, var object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] else {
                print(String(decoding: encoded, as: UTF8.self))
                return
            }
            object["blurHash"] = placeholder.blurHash
            object["thumbHash"] = placeholder.thumbHash.base64EncodedString()
            object["average"] = "#" + average
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self))
        } else {
            print("format: \(info.format)")
            print("size: \(info.width)x\(info.height)")
            print("orientation: \(info.orientation)")
            print("alpha: \(info.hasAlpha ? "yes" : "no")")
            print("frames: \(info.frameCount)")
            if let depth = info.bitDepth { print("bit depth: \(depth)") }
            if let loops = info.loopCount { print("loops: \(loops == 0 ? "forever" : "\(loops)")") }
            if let profile = info.colorProfile {
                print("colour profile: \(profile) (\(info.convertsToSRGB ? "converted to sRGB" : "not converted"))")
            } else {
                print("colour profile: none (sRGB assumed)")
            }
            if let placeholder, let average {
                print("blurhash: \(placeholder.blurHash)")
                print("thumbhash: \(placeholder.thumbHash.base64EncodedString())")
                print("average: #\(average)")
            }
        }
    }
}
