import ArgumentParser
import Foundation
import OspreyCodec
import OspreyDomain

/// `osprey convert`: decode (at a target size), encode in the output's format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert an image, optionally to a target size, into the format of the output's extension.",
        discussion: """
            --mode fit keeps the aspect ratio inside WxH; --mode fill covers WxH and crops \
            the centre. Images are never enlarged. The output format comes from its \
            extension: .jpg/.jpeg, .png, .webp or .avif. An animated input (GIF, APNG, WebP) stays \
            animated when the output is .webp, unless --first-frame; other outputs take the \
            first frame. Colours are converted to sRGB through the input's ICC profile unless \
            --keep-profile, which leaves them as stored and embeds the profile in the output.

            Example:
              osprey convert big.png --size 640x640 --mode fill -o thumb.webp --quality 0.85
            """
    )

    @Argument(help: "The input image file.")
    var input: String

    @Option(name: .shortAndLong, help: "The output file (.jpg, .jpeg, .png, .webp or .avif).")
    var output: String

    @Option(help: "Target size WxH in pixels.")
    var size: SizeArgument?

    @Option(help: "fit or fill.")
    var mode: ContentMode = .fit

    @Option(help: "Quality 0...1 for JPEG, WebP and AVIF.")
    var quality: Double = 0.8

    func validate() throws {
        guard Self.format(ofPath: output) != nil else {
            throw ValidationError("cannot tell the output format from '\(output)': use .jpg, .jpeg, .png, .webp or .avif")
        }
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
    }

    @Flag(help: "One JSON object: output, format, width, height, bytes, frames.")
    var json = false

    @Flag(help: "Write only the first frame of an animated input, even as .webp.")
    var firstFrame = false

    @Flag(help: "Keep the input's colours and ICC profile instead of converting to sRGB.")
    var keepProfile = false

    func run() throws {
        let codec = ImageCodec()
        let image: Image
        do {
            let frames: FrameSelection = Self.format(ofPath: output) == .webp && !firstFrame ? .all : .first
            image = try codec.decode(.file(path: input), options: DecodingOptions(
                targetSize: size?.size, contentMode: mode, colorHandling: keepProfile ? .preserve : .convertToSRGB, frames: frames))
        } catch {
            throw ExitStatus.fail(error)
        }
        let data: Data
        do {
            data = try codec.encode(image, options: EncodingOptions(format: Self.format(ofPath: output)!, quality: quality))
        } catch {
            ExitStatus.printError(error.description)
            throw ExitStatus.badData
        }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            ExitStatus.printError("cannot write \(output): \(error.localizedDescription)")
            throw ExitStatus.cannotCreate
        }
        if json {
            print(try CacheJSON.encode(WrittenImage(output: output, format: Self.format(ofPath: output)!.rawValue,
                                                    width: image.width, height: image.height, bytes: data.count,
                                                    frames: image.animation?.frames.count ?? 1)))
        }
    }

    static func format(ofPath path: String) -> ImageFormat? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "jpg", "jpeg": .jpeg
        case "png": .png
        case "webp": .webp
        case "avif": .avif
        default: nil
        }
    }
}
