import ArgumentParser
import Osprey
import OspreyDomain

/// The `osprey` command-line tool: image loading, conversion and cache tools.
@main
struct OspreyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey",
        abstract: "Load, convert and cache images — Osprey's command-line tool.",
        discussion: """
            Osprey is an image loading and caching library for Swift on Linux. This tool \
            exposes it from the shell.

            Exit statuses: 0 ok, 1 some inputs of a batch failed (the others were written), 64 usage error, 65 bad image data, 66 cannot open input, \
            69 network or HTTP failure, 70 internal error, 73 cannot write output.

            Example:
              osprey convert photo.jpg --size 640x640 -o thumb.jpg
            """,
        version: OspreyVersion.current,
        subcommands: [InfoCommand.self, ConvertCommand.self, FetchCommand.self, LoadCommand.self, PrefetchCommand.self,
                      FourCutCommand.self, CacheCommand.self, CompletionCommand.self]
    )
}
