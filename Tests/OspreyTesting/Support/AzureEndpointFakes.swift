#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Azure's Blob service and token services as published (`Tests/Scripts/azure_endpoint_fakes.py`),
/// the Shared Key signature checked by Azure's own Python SDK. The account is Azurite's
/// well-known development account, in the endpoint's path as Azurite has it.
public final class AzureEndpointFakes: @unchecked Sendable {
    public static let account = "devstoreaccount1"
    /// Azurite's published development key.
    public static let accountKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
    public static let sas = "sv=2021-08-06&sr=c&sp=r&se=2099-01-01T00%3A00%3A00Z&sig=osprey%2Btest%3D"
    public static let (tenant, clientID, clientSecret, federatedToken, identityHeader) = ("osprey-tenant", "osprey-client", "osprey-secret",
                                                                                          "eyJhbGciOiJSUzI1NiJ9.federated.test", "osprey-identity")
    public var url: String { "http://127.0.0.1:\(server.port)" }
    /// The blob service's endpoint, the account in its path.
    public var endpoint: String { url + "/" + Self.account }
    private let server: SpawnedServer
    private let stateFile: URL

    public init(object: Data) throws {
        stateFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-azure-\(UUID().uuidString).json")
        let state = ["account": Self.account, "account_key": Self.accountKey, "sas": Self.sas, "object": object.base64EncodedString(),
                     "tenant": Self.tenant, "client_id": Self.clientID, "client_secret": Self.clientSecret,
                     "federated_token": Self.federatedToken, "identity_header": Self.identityHeader]
        try JSONSerialization.data(withJSONObject: state).write(to: stateFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/azure_endpoint_fakes.py").path
        server = try SpawnedServer.onFreePort(startingWithin: 30) { [stateFile] in ["/usr/bin/env", "python3", script, "\($0)", stateFile.path] }
    }

    /// Answers given so far, by kind: `shared key`, `sas`, `bearer`, `secret`, `workload`, `imds`, `app service`.
    public func hits() throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: try CurlGet.run(url + "/__hits").body)
    }

    public func stop() {
        server.end(SIGTERM)
        try? FileManager.default.removeItem(at: stateFile)
    }
}
