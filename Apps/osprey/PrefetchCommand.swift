import ArgumentParser
import Foundation
import Osprey
import OspreyPrograms

/// `osprey prefetch`: fill the disk cache ahead of need.
struct PrefetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prefetch",
        abstract: "Load a list of URLs into the disk cache, skipping what is cached already.",
        discussion: """
            Reads one URL a line (blank lines and lines starting with # are ignored). Shows a \
            progress bar on a terminal and plain lines otherwise, then a summary. Exit status 0 \
            when nothing failed, 69 when some URL failed.

            Example:
              osprey prefetch --from urls.txt --concurrency 8 --json
            """
    )

    @Option(help: "The file of URLs or paths, one a line.")
    var from: String

    @Option(help: "Loads at once (default 5).")
    var concurrency = 5

    @Flag(help: "Print the summary as one JSON object on the last line of stdout: completed, failed, skipped, total.")
    var json = false

    @OptionGroup var cache: CacheOptions

    func validate() throws {
        guard concurrency > 0 else { throw ValidationError("--concurrency must be at least 1") }
    }

    func run() async throws {
        let text: String
        do {
            text = try String(contentsOfFile: from, encoding: .utf8)
        } catch {
            ExitStatus.printError("cannot read \(from): \(error.localizedDescription)")
            throw ExitStatus.cannotOpen
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let urls = lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var requests: [ImageRequest] = []
        for line in urls {
            guard let url = SourceArgument.url(line) else { throw ValidationError("not a URL or a path: \(line)") }
            requests.append(ImageRequest(url: url))
        }
        let prefetcher = ImagePrefetcher(pipeline: try cache.pipeline(maxConcurrentTransfers: concurrency), maxConcurrentLoads: concurrency)
        let bar = CountReporter(label: "prefetch")
        var last = ImagePrefetcher.Progress(total: requests.count)
        for await progress in prefetcher.prefetch(requests) {
            last = progress
            bar.report(done: progress.finished, of: progress.total)
        }
        bar.finish()
        let summary = PrefetchSummary(completed: last.completed, failed: last.failed, skipped: last.skipped, total: last.total)
        print(json ? try CacheJSON.encode(summary) : "completed \(summary.completed), failed \(summary.failed), skipped \(summary.skipped), total \(summary.total)")
        if summary.failed > 0 { throw ExitStatus.unavailable }
    }
}
