import ArgumentParser
import Foundation
import Osprey
import OspreyServer

/// `osprey-server health`: exits 0 when the server the same settings describe answers its
/// health check, 1 otherwise — for a container's `HEALTHCHECK`, as `imgproxy health`.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "health", abstract: "Exit 0 when the server answers its health check.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let (server, _) = try options.configuration()
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
