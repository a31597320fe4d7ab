import ArgumentParser
import Foundation
import Logging
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
            (OSPREY_KEY, OSPREY_SALT, OSPREY_ALLOWED_SOURCES…); repeatable ones take several values \
            separated by commas. An imgproxy deployment's IMGPROXY_ variables are read as imgproxy \
            reads them, beneath the options and OSPREY_ variables (Docs/MIGRATING-FROM-IMGPROXY.md). \
            SIGINT or SIGTERM stops accepting and finishes what is in flight.

            Example:
              osprey-server --port 8080 --key 943b421c9eb07c83 --salt 520f986b998545b4 \\
                --allowed-source https://images.example.com/
            """,
        subcommands: [ServeCommand.self, HealthCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// Serves images: the default subcommand.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve images (the default).")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        let imgproxy = ImgproxyEnvironment()
        let json = try options.logsJSON(imgproxy)
        let level = Logger.Level(imgproxyName: imgproxy.logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var (configuration, notices) = try options.configuration(imgproxy)
        configuration.logger = Logger(label: "osprey.server")
        for notice in notices { configuration.logger.warning("\(notice)") }
        let app = try Result { () throws(ServerConfigurationError) in try buildApplication(configuration) }
            .mapError { ValidationError(ServerOptions.message(for: $0)) }.get()
        try await app.runService()
        print("osprey-server: stopped")
    }
}
