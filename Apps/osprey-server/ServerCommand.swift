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
            Every setting is a flag, an OSPREY_ variable and, where imgproxy has it, its IMGPROXY_ \
            variables; flags win over OSPREY_ variables, which win over IMGPROXY_ ones (an imgproxy \
            env file starts the server unchanged). A list takes the flag repeated or a variable's \
            comma-separated values; a switch is on alone or given true or false. SIGINT or SIGTERM \
            stops accepting and finishes what is in flight.

            Example:
              osprey-server --port 8080 --key 943b421c9eb07c83 --salt 520f986b998545b4 \\
                --allowed-source https://images.example.com/

            SETTINGS:
            \(ServerSettings.help())
            """,
        subcommands: [ServeCommand.self, HealthCommand.self, SettingsTableCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// Serves images: the default subcommand.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve images (the default); osprey-server --help lists the settings.")

    @Argument(parsing: .allUnrecognized, help: "Settings: --name VALUE, as osprey-server --help lists them.") var settings: [String] = []

    func run() async throws {
        MemoryTuning.returnLargeBlocksToTheSystem()
        // imgproxy's env sources (a secret, SSM parameters, a file) are read before the settings.
        let environment: [String: String]
        do {
            environment = try await EnvironmentSources.load(ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
        var (configuration, notices) = try Result { () throws(ServerSettingError) in try ServerSettings.read(arguments: settings, environment: environment) }
            .mapError { ValidationError($0.description) }.get()
        let (json, level) = (configuration.logsJSON, configuration.logLevel)
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        configuration.logger = Logger(label: "osprey.server")
        for notice in notices { configuration.logger.warning("\(notice)") }
        let (host, announced) = (configuration.host, configuration.metrics.map { "osprey-server: metrics on http://\($0.host):\($0.port)/metrics\n" } ?? "")
        configuration.onServerRunning = { port in
            // Unbuffered, so whoever reads the log (a supervisor, a test) sees it at once.
            FileHandle.standardOutput.write(Data("osprey-server: listening on http://\(host):\(port)/\n\(announced)".utf8))
        }
        do {
            configuration.service = try await configuration.service.fetchingWatermark()
        } catch {
            throw ValidationError(Self.message(for: error))
        }
        let app = try Result { () throws(ServerConfigurationError) in try buildApplication(configuration) }
            .mapError { ValidationError(Self.message(for: $0)) }.get()
        try await app.runService()
        print("osprey-server: stopped")
    }

    /// A configuration the service refuses, in the settings' words.
    static func message(for error: ServerConfigurationError) -> String {
        switch error {
        case .unsignedWithKeys: "--allow-unsigned with --key: a configured key means every URL must be signed"
        case .neitherKeysNorUnsigned: "give --key and --salt, or --allow-unsigned to serve unsigned URLs"
        default: error.description
        }
    }
}
