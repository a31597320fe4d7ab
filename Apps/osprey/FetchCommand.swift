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
        let response: DataResponse
        do {
            response = try await CurlDataLoader().loadData(for: DataRequest(url: target)) { reporter.report($0) }
        } catch let error as DataLoadingError {
            reporter.finish()
            ExitStatus.printError(error.description)
            if case .unsupportedScheme = error { throw ExitStatus.usage }
            throw ExitStatus.unavailable
        }
        reporter.finish()
        do {
            try response.data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            ExitStatus.printError("cannot write \(output): \(error.localizedDescription)")
            throw ExitStatus.cannotCreate
        }
        FileHandle.standardError.write(Data("\(response.data.count) bytes from \(response.metadata.url.absoluteString) to \(output)\n".utf8))
        if json {
            print(try CacheJSON.encode(FetchReport(url: url, finalURL: response.metadata.url.absoluteString,
                                                   status: response.metadata.statusCode, bytes: response.data.count, output: output)))
        }
    }
}

/// `osprey fetch --json`'s report.
struct FetchReport: Codable {
    let url: String
    let finalURL: String
    let status: Int
    let bytes: Int
    let output: String
}
