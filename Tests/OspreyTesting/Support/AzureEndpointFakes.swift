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
    /// The service principal's private key and certificate, in one PEM file, and as a
    /// PKCS#12 file whose password is ``certificatePassword``: made for each fake by openssl.
    public let certificatePath: String
    public let certificatePKCS12Path: String
    public static let certificatePassword = "osprey-pfx"
    public var url: String { "http://127.0.0.1:\(server.port)" }
    /// The blob service's endpoint, the account in its path.
    public var endpoint: String { url + "/" + Self.account }
    private let server: SpawnedServer
    private let stateFile: URL

    public init(object: Data) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-azure-\(UUID().uuidString)")
        stateFile = base.appendingPathExtension("json")
        let (key, certificate) = (base.path + ".key", base.path + ".crt")
        certificatePath = base.path + ".pem"
        certificatePKCS12Path = base.path + ".pfx"
        for arguments in [["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-subj", "/CN=osprey-client", "-days", "2"],
                          ["pkcs12", "-export", "-inkey", key, "-in", certificate, "-out", certificatePKCS12Path, "-passout", "pass:" + Self.certificatePassword]] {
            let outcome = try ChildProcess.run("/usr/bin/openssl", arguments)
            guard outcome.status == 0 else { throw SpawnedServerError.didNotStart("openssl \(arguments[0]): \(outcome.output)") }
        }
        let certificatePEM = try String(contentsOfFile: certificate, encoding: .utf8)
        try (try String(contentsOfFile: key, encoding: .utf8) + certificatePEM).write(toFile: certificatePath, atomically: true, encoding: .utf8)
        let state = ["account": Self.account, "account_key": Self.accountKey, "sas": Self.sas, "object": object.base64EncodedString(),
                     "tenant": Self.tenant, "client_id": Self.clientID, "client_secret": Self.clientSecret,
                     "federated_token": Self.federatedToken, "identity_header": Self.identityHeader, "certificate": certificatePEM]
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
        for file in [stateFile.path, certificatePath, certificatePKCS12Path, stateFile.deletingPathExtension().path + ".key",
                     stateFile.deletingPathExtension().path + ".crt"] {
            try? FileManager.default.removeItem(atPath: file)
        }
    }
}
