import ArgumentParser
import Foundation
import OspreyCodec
import OspreyDomain

/// `osprey info`: what an image file's header says.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an image's format, size, orientation, alpha, frames, loop count and colour profile.",
        discussion: """
            The size is as displayed, after EXIF orientation. The format is read from the \
            file's magic bytes, never from its extension.

            Example:
              osprey info photo.jpg --json
            """
    )

    @Argument(help: "The image file.")
    var file: String

    @Flag(help: "Print one JSON object with keys format, width, height, orientation, hasAlpha, frameCount, loopCount, colorProfile, convertsToSRGB.")
    var json = false

    func run() throws {
        let info: ImageInfo
        do {
            info = try ImageCodec().info(.file(path: file))
        } catch {
            throw ExitStatus.fail(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(info), as: UTF8.self))
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
        }
    }
}
