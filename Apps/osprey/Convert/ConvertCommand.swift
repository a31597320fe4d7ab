import ArgumentParser
import Foundation
import Osprey
import OspreyCodec
import OspreyDomain

/// `osprey convert`: decode (at target sizes), encode; one image to one file, or many images
/// (files, folders, lists) to a folder, several at once.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert images, optionally to target sizes, into another format.",
        discussion: """
            One image: -o names the output file, whose extension gives the format \
            (\(writableExtensions(dotted: true))).

            Many images: give several files, folders (their images; with --recursive, their \
            subfolders' too, kept as subfolders of the output), or --from a list of paths (- for \
            standard input). -o names the output folder, --name the file name pattern with \
            {name}, {width}, {height} and {ext} (default {name}_{width}x{height}.{ext}, or \
            {name}.{ext} without --size), and --format the format (default: the input's own \
            when Osprey writes it, else png). Several --size values make one output each, from \
            one read and one decode of the input. --jobs images are converted at once (default: \
            one per core). An input that fails is reported and skipped; outputs that exist are \
            kept unless --overwrite. Outputs are written under a temporary name and renamed, and \
            an interrupted run removes what it was writing, so no half file is left. Exit \
            status 1 when some inputs failed and the others were written.

            --mode fit keeps the aspect ratio inside WxH; --mode fill covers WxH and crops \
            the centre. Images are never enlarged. An animated input (GIF, APNG, WebP, JPEG XL) stays \
            animated when the output is \(writtenFormats(or: true) { $0.animation }), unless --first-frame; other \
            outputs take the first frame. Colours are converted to sRGB through the input's ICC profile unless \
            --keep-profile, which leaves them as stored and embeds the profile in the output.

            Example:
              osprey convert big.png --size 640x640 --mode fill -o thumb.webp --quality 0.85
              osprey convert photos/ --recursive --size 256x256 --size 1024x1024 -o thumbs/ --format webp
            """
    )

    @Argument(help: "Input image files or folders.")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "The output file (\(Self.writableExtensions(dotted: true))), or folder for many images.")
    var output: String

    @Option(help: "Target size WxH in pixels; repeat for several outputs per image.")
    var size: [SizeArgument] = []

    @Option(help: "fit or fill.")
    var mode: ContentMode = .fit

    @Option(help: "Quality 0...1 for \(Self.writtenFormats { $0.quality }).")
    var quality: Double = 0.8

    @Option(help: "Many images: the output format (\(Self.writableExtensions(dotted: false))).")
    var format: String?

    @Option(help: "Many images: the output file name pattern.")
    var name: String?

    @Option(help: "Many images: a file listing input paths, one per line (- for standard input).")
    var from: String?

    @Flag(name: .shortAndLong, help: "Take the images in the named folders' subfolders too.")
    var recursive = false

    @Option(help: "Many images: how many to convert at once.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Many images: replace outputs that exist.")
    var overwrite = false

    @Flag(help: "One JSON object: output, format, width, height, bytes, frames. Many images: one line per failure, then a summary.")
    var json = false

    @Flag(help: "Write only the first frame of an animated input, even as \(Self.writtenFormats(or: true) { $0.animation }).")
    var firstFrame = false

    @Flag(help: "Keep the input's colours and ICC profile instead of converting to sRGB.")
    var keepProfile = false

    @Flag(help: "Lossless \(Self.writtenFormats(or: true) { $0.lossless && $0.quality }); a JPEG written as .jxl at its own size keeps its DCT coefficients.")
    var lossless = false

    /// One input file to one output file, as `osprey convert in.jpg -o out.webp` always did.
    private var isSingle: Bool {
        var isFolder: ObjCBool = false
        let outputIsFolder = output.hasSuffix("/") || URL(fileURLWithPath: output).pathExtension.isEmpty
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue)
        let inputIsFolder = inputs.count == 1 && FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isFolder) && isFolder.boolValue
        return inputs.count == 1 && from == nil && !inputIsFolder && size.count <= 1 && !outputIsFolder
    }

    private var settings: ConvertSettings {
        ConvertSettings(mode: mode, quality: quality, firstFrame: firstFrame, keepProfile: keepProfile, lossless: lossless)
    }

    func validate() throws {
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
        guard !inputs.isEmpty || from != nil else { throw ValidationError("give an input image, a folder or --from LIST") }
        if isSingle {
            guard Self.format(ofPath: output) != nil else {
                throw ValidationError("cannot tell the output format from '\(output)': use \(Self.writableExtensions(dotted: true))")
            }
            return
        }
        guard URL(fileURLWithPath: output).pathExtension.isEmpty || output.hasSuffix("/")
                || FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("'\(output)' names a file: for several images or sizes, -o names a folder")
        }
        if let format, Self.format(ofPath: "x." + format) == nil {
            throw ValidationError("cannot write '\(format)': use \(Self.writableExtensions(dotted: false))")
        }
        if let name, !OutputNaming.placeholders.contains(where: name.contains) || name.contains("/") {
            throw ValidationError("--name needs {name} and no '/': for example {name}_{width}.{ext}")
        }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        if isSingle { try convertOne() } else { try convertMany() }
    }

    private func convertOne() throws {
        let outputFormat = Self.format(ofPath: output)!
        let job = ConvertJob(input: inputs[0], outputs: [(size.first?.size, output)], format: outputFormat)
        do {
            let written = try job.run(ImageCodec(), settings, files: OutputFiles())
            if json { print(try CacheJSON.encode(written[0])) }
        } catch let failure as ConvertJob.Failure {
            ExitStatus.printError(failure.message)
            throw ExitCode(failure.status)
        }
    }

    private func convertMany() throws {
        let items: [ConvertInputs.Item]
        do {
            items = try ConvertInputs.collect(inputs, recursive: recursive, listFile: from)
        } catch {
            ExitStatus.printError(error.description)
            throw ExitStatus.cannotOpen
        }
        guard !items.isEmpty else {
            ExitStatus.printError("no images in \((inputs + (from.map { [$0] } ?? [])).joined(separator: ", "))")
            throw ExitStatus.cannotOpen
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            ExitStatus.printError("cannot create the output folder \(output): \(fileErrorReason(error))")
            throw ExitStatus.cannotCreate
        }
        let sizes = size.isEmpty ? [nil] : size.map(\.size)
        let naming = OutputNaming(folder: output, pattern: name ?? (size.isEmpty ? "{name}.{ext}" : OutputNaming.defaultPattern),
                                  format: format.flatMap { Self.format(ofPath: "x." + $0) })
        MemoryTuning.returnLargeBlocksToTheSystem()
        let files = OutputFiles()
        let interruptions = Self.removingUnfinishedFiles(of: files, on: [SIGINT, SIGTERM])
        let summary = BatchConverter(items: items, sizes: sizes, naming: naming, settings: settings, jobs: jobs,
                                     overwrite: overwrite, json: json, files: files).run()
        withExtendedLifetime(interruptions) {}
        if json {
            print(try CacheJSON.encode(summary))
        } else {
            ExitStatus.printError("""
                converted \(summary.converted) of \(summary.images) images (\(summary.outputs) files) in \
                \(String(format: "%.1f", summary.seconds)) s, \(String(format: "%.1f", summary.imagesPerSecond)) images/s; \
                \(summary.skipped) skipped, \(summary.failed) failed
                """)
        }
        if summary.failed > 0 { throw ExitStatus.partialFailure }
    }

    /// On these signals, the files being written are removed before the process ends, as it
    /// would have ended (128 + the signal). `_exit`, so that no other thread's exit (a run
    /// whose last writes were refused) can race it.
    private static func removingUnfinishedFiles(of files: OutputFiles, on signals: [Int32]) -> [any DispatchSourceSignal] {
        signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                files.removeUnfinished()
                _exit(128 + number)
            }
            source.resume()
            return source
        }
    }

    /// The extensions of the formats the codec writes, for messages: `.jpg, .jpeg, .png … or .jxl`.
    static func writableExtensions(dotted: Bool) -> String {
        let names = ImageCodec().encoders.keys.sorted { $0.rawValue < $1.rawValue }.flatMap(\.fileExtensions).map { (dotted ? "." : "") + $0 }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The formats the codec writes whose capabilities pass `test`, for help: `GIF, JXL and WEBP`.
    static func writtenFormats(or: Bool = false, _ test: (EncoderCapabilities) -> Bool) -> String {
        let codec = ImageCodec()
        let names = codec.encoders.keys.sorted { $0.rawValue < $1.rawValue }
            .filter { format in codec.encoders[format]?.capabilities(for: format).map(test) ?? false }.map { $0.rawValue.uppercased() }
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + (names.last ?? "")
    }

    /// The format a path's extension names, when the codec writes it.
    static func format(ofPath path: String) -> ImageFormat? {
        ImageFormat(fileExtension: URL(fileURLWithPath: path).pathExtension).flatMap { ImageCodec().encoders[$0] == nil ? nil : $0 }
    }
}
