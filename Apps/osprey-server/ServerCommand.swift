import ArgumentParser
import Foundation
import Osprey
import OspreyServer

/// `osprey-server`: thumbnails of remote images behind imgproxy-style URLs.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osprey-server",
        abstract: "An image server speaking imgproxy's URL format, with Osprey's caches behind it.",
        discussion: """
            Every option also reads an environment variable, OSPREY_ and its name in capitals \
            (OSPREY_KEY, OSPREY_SALT, OSPREY_ALLOW_ORIGIN…); repeatable ones take several values \
            separated by commas. SIGINT or SIGTERM stops accepting and finishes what is in flight.

            Example:
              osprey-server --port 8080 --key 943b421c9eb07c83 --salt 520f986b998545b4 \\
                --allow-origin https://images.example.com/
            """
    )

    @OptionGroup var options: ServerOptions

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        let configuration = try options.configuration()
        let app = try Result { () throws(ServerConfigurationError) in try buildApplication(configuration) }
            .mapError { ValidationError(ServerOptions.message(for: $0)) }.get()
        try await app.runService()
        print("osprey-server: stopped")
    }
}
