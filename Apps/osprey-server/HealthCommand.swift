import ArgumentParser
import Foundation
import Osprey
import OspreyServer

/// `osprey-server health`: exits 0 when the server the same settings describe answers its
/// health check, 1 otherwise — for a container's `HEALTHCHECK`, as `imgproxy health`. It reads
/// the settings only to find the server: nothing is opened, decoded or started.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "health", abstract: "Exit 0 when the server answers its health check.")

    @Argument(parsing: .allUnrecognized, help: "The server's settings, as osprey-server --help lists them.") var settings: [String] = []

    func run() async throws {
        let (server, _) = try Result { () throws(ServerSettingError) in try ServerSettings.read(arguments: settings) }
            .mapError { ValidationError($0.description) }.get()
        // A server listening on every address answers on loopback.
        let host = ["0.0.0.0", "::", ""].contains(server.host) ? "127.0.0.1" : server.host.contains(":") ? "[\(server.host)]" : server.host
        guard let url = URL(string: "http://\(host):\(server.port)\(server.pathPrefix)/health") else { throw ExitCode.failure }
        var network = CurlDataLoader.Configuration()
        network.transferTimeout = 5
        network.connectTimeout = 2
        do {
            _ = try await CurlDataLoader(configuration: network).loadData(for: DataRequest(url: url))
        } catch {
            FileHandle.standardError.write(Data("osprey-server health: \(url.absoluteString): \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
