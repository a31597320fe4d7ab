import ArgumentParser
import OspreyDomain

/// The `osprey` command-line tool: image loading, conversion and cache tools.
@main
struct OspreyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey",
        abstract: "Load, convert and cache images — Osprey's command-line tool.",
        discussion: """
            Osprey is an image loading and caching library for Swift on Linux. This tool \
            exposes it from the shell. Commands arrive as the library grows.

            Example:
              osprey --version
            """,
        version: OspreyVersion.current,
        subcommands: []
    )
}
