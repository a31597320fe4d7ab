import ArgumentParser
import Foundation
import Osprey

/// `osprey fourcut`: a frame and four photos, or nothing.
struct FourCutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fourcut",
        abstract: "Place four photos in a 2×2 grid inside a frame, written only if all five load.",
        discussion: """
            The card has the frame's size; each photo covers its cell and is cropped to it. \
            Nothing is written when any image fails: exit status 69 for a network or HTTP \
            failure, 65 for bad image data.

            Example:
              osprey fourcut --frame https://example.com/frame.png --photo https://example.com/1.jpg \\
                --photo https://example.com/2.jpg --photo https://example.com/3.jpg --photo https://example.com/4.jpg -o card.png
            """
    )

    @Option(help: "The frame image's URL.")
    var frame: String

    @Option(help: "A photo's URL; give exactly four.")
    var photo: [String] = []

    @Option(name: .shortAndLong, help: "The PNG file to write.")
    var output: String

    @Flag(help: "One JSON object: output, format, width, height, bytes.")
    var json = false

    @OptionGroup var cache: CacheOptions

    func validate() throws {
        guard photo.count == 4 else { throw ValidationError("give exactly four --photo URLs (got \(photo.count))") }
        for url in [frame] + photo where URL(string: url)?.scheme == nil { throw ValidationError("not a URL: \(url)") }
    }

    func run() async throws {
        let pipeline = try cache.pipeline()
        let frameRequest = ImageRequest(url: URL(string: frame)!)
        let frameResponse: ImageResponse
        let photos: [ImageResponse]
        do {
            frameResponse = try await pipeline.image(for: frameRequest)
            // Photos are decoded at the size of a cell at most: half the frame, covering it.
            let cell = PixelSize(width: frameResponse.image.width / 2, height: frameResponse.image.height / 2)
            let requests = photo.map { ImageRequest(url: URL(string: $0)!, targetSize: cell, contentMode: .fill) }
            photos = try await ImageBatchLoader(provider: pipeline).loadAll(requests)
        } catch {
            ExitStatus.printError("no card written: \(error)")
            throw ExitStatus.status(for: error)
        }
        do {
            let card = try Collage.compose(frame: frameResponse.image, photos: photos.map(\.image))
            let data = try ImageCodec().encode(card, options: EncodingOptions(format: .png))
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            print(json ? try CacheJSON.encode(WrittenImage(output: output, format: "png", width: card.width, height: card.height, bytes: data.count))
                       : "\(card.width)x\(card.height) card written to \(output)")
        } catch let error as ImageProcessingError {
            ExitStatus.printError(error.description)
            throw ExitStatus.badData
        } catch {
            ExitStatus.printError("cannot write \(output): \(error)")
            throw ExitStatus.cannotCreate
        }
    }
}
