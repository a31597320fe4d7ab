import ArgumentParser
import Foundation
import Osprey
import OspreyPrograms

/// `osprey load`: images through the full pipeline, with the tier each came from.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load images through memory, disk and network, and report where each came from.",
        discussion: """
            Loads the URLs in parallel through the pipeline (memory → disk → network) and prints, \
            in the order given, each image's tier, size and time. Exit status 0 when every image \
            loaded, 69 when one failed for a network or HTTP reason, 65 for bad image data.

            Processors (--process) are comma separated: resize=WxH[:fill], crop=X:Y:W:H, \
            round=R, circle, blur=R, tint=#rrggbb, overlay=#rrggbb[:F], grayscale.

            Example:
              osprey load https://example.com/a.jpg --size 200x200 --mode fill --process blur=4,round=12 --json
            """
    )

    @Argument(help: "The images: http, https, file or data URLs, or paths.")
    var urls: [String]

    @Option(help: "The size to load at, WxH (default: full size).")
    var size: SizeArgument?

    @Option(help: "fit keeps the whole image inside the size; fill covers it and crops the centre.")
    var mode: ContentMode = .fit

    @Option(help: "Processors, such as blur=4,round=12,grayscale.")
    var process: String?

    @Option(name: .shortAndLong, help: "A folder to write the processed images to, as PNG.")
    var output: String?

    @Flag(help: "One JSON object a line: url, tier, width, height, ms.")
    var json = false

    @OptionGroup var cache: CacheOptions

    func validate() throws {
        if let process { _ = try Self.processors(process) }
        for url in urls where SourceArgument.url(url) == nil { throw ValidationError("not a URL or a path: \(url)") }
    }

    static func processors(_ list: String) throws -> [any ImageProcessing] {
        do {
            return try ProcessorList.parse(list)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The request for `url` (a fill comes back exactly the size).
    static func request(_ url: URL, size: PixelSize?, mode: ContentMode, processors: [any ImageProcessing]) -> ImageRequest {
        ImageRequest(url: url, targetSize: size, contentMode: mode, processors: processors)
    }

    func run() async throws {
        let processors = try process.map(Self.processors) ?? []
        let pipeline = try cache.pipeline()
        let requests = urls.map { Self.request(SourceArgument.url($0)!, size: size?.size, mode: mode, processors: processors) }
        let progress = CountReporter(label: "load")
        let total = requests.count
        let provider = CountingProvider(pipeline: pipeline) { progress.advance(of: total) }
        let results = await ImageBatchLoader(provider: provider).loadEach(requests)
        progress.finish()
        var failure: ExitCode?
        for (index, (url, result)) in zip(urls, results).enumerated() {
            switch result {
            case .success(let response):
                let ms = Double(response.duration.components.attoseconds) / 1e15 + Double(response.duration.components.seconds) * 1000
                let line = LoadLine(url: url, tier: response.tier.rawValue, width: response.image.width,
                                    height: response.image.height, ms: (ms * 10).rounded() / 10)
                print(json ? try CacheJSON.encode(line) : "\(line.tier)\t\(line.width)x\(line.height)\t\(line.ms) ms\t\(url)")
                if let output { try write(response.image, index: index, url: url, folder: output) }
            case .failure(let error):
                ExitStatus.printError("\(url): \(error)")
                let status = ExitStatus.status(for: error)
                if failure != ExitStatus.unavailable { failure = status }
            }
        }
        if let failure { throw failure }
    }

    private func write(_ image: Image, index: Int, url: String, folder: String) throws {
        let data: Data
        do {
            data = try ImageCodec().encode(image, options: EncodingOptions(format: .png))
        } catch {
            ExitStatus.printError("cannot encode \(url): \(error)")
            throw ExitStatus.internalError
        }
        let name = String(format: "%03d-", index) + (URL(string: url)?.deletingPathExtension().lastPathComponent ?? "image") + ".png"
        let target = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: target, options: .atomic)
        } catch {
            ExitStatus.printError("cannot write \(target.path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }
}
