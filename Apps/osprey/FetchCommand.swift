import ArgumentParser
import Foundation
import OspreyDomain
import OspreyNetwork

/// `osprey fetch`: download bytes as they are.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a URL's bytes as they are, whatever they are.",
        discussion: """
            Shows a progress bar when stderr is a terminal, plain lines otherwise. Network and \
            HTTP failures exit with status 69.

            Example:
              osprey fetch https://example.com/photo.jpg -o photo.jpg
            """
    )

    @Argument(help: "The http or https URL.")
    var url: String

    @Option(name: .shortAndLong, help: "The file to write.")
    var output: String

    @Flag(help: "One JSON object on stdout: url, finalURL, status, bytes, output.")
    var json = false

    func run() async throws {
        guard let target = URL(string: url), target.scheme != nil else { throw ValidationError("not a URL: \(url)") }
        let reporter = ProgressReporter()
        // Streamed to a temporary file beside the output and renamed into place when whole, so
        // memory stays flat whatever the size and an interrupted fetch leaves no half file.
        let destination = URL(fileURLWithPath: output)
        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).part")
        // A download has no size limit and no overall timeout of its own, as curl's; a stall still ends it.
        let loader = CurlDataLoader(configuration: CurlDataLoader.Configuration(transferTimeout: 86_400, maxResponseSize: 1 << 50))
        let response: DataResponse
        do {
            response = try await loader.download(DataRequest(url: target), toFile: partial.path) { reporter.report($0) }
            guard rename(partial.path, destination.path) == 0 else { throw CurlDataLoader.WriteError(reason: String(cString: strerror(errno))) }
        } catch let error as DataLoadingError {
            reporter.finish()
            try? FileManager.default.removeItem(at: partial)
            ExitStatus.printError(error.description)
            if case .unsupportedScheme = error { throw ExitStatus.usage }
            throw ExitStatus.unavailable
        } catch {
            reporter.finish()
            try? FileManager.default.removeItem(at: partial)
            ExitStatus.printError("cannot write \(output): \(error)")
            throw ExitStatus.cannotCreate
        }
        reporter.finish()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
        FileHandle.standardError.write(Data("\(bytes) bytes from \(response.metadata.url.absoluteString) to \(output)\n".utf8))
        if json {
            print(try CacheJSON.encode(FetchReport(url: url, finalURL: response.metadata.url.absoluteString,
                                                   status: response.metadata.statusCode, bytes: bytes, output: output)))
        }
    }
}
