#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Google's token services and a Cloud Storage read that checks their tokens
/// (`Tests/Scripts/gcp_endpoint_fakes.py`), with a service account key made for the test.
public final class GCPEndpointFakes: @unchecked Sendable {
    public var url: String { "http://127.0.0.1:\(server.port)" }
    /// A service account's JSON key whose `token_uri` is this server's.
    public let serviceAccountKey: String
    private let server: SpawnedServer
    private let stateFile: URL

    /// `secrets`: Secret Manager's versions by name (`projects/P/secrets/S/versions/V`) and their text.
    public init(object: Data, secrets: [String: String] = [:]) throws {
        let keys = try ChildProcess.run("/usr/bin/env", ["python3", "-c", """
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import rsa
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end="")
            print(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(), end="")
            """])
        guard keys.status == 0, let split = keys.output.range(of: "-----BEGIN PUBLIC KEY-----") else { throw MotoS3Error.setupFailed(keys.output) }
        let (privateKey, publicKey) = (String(keys.output[..<split.lowerBound]), String(keys.output[split.lowerBound...]))
        stateFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-gcp-\(UUID().uuidString).json")
        let email = "osprey@osprey-tests.iam.gserviceaccount.com"
        let state: [String: Any] = ["public_key": publicKey, "client_email": email, "object": object.base64EncodedString(),
                                    "secrets": secrets.mapValues { Data($0.utf8).base64EncodedString() }]
        try JSONSerialization.data(withJSONObject: state).write(to: stateFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/gcp_endpoint_fakes.py").path
        server = try SpawnedServer.onFreePort(startingWithin: 30) { [stateFile] in ["/usr/bin/env", "python3", script, "\($0)", stateFile.path] }
        let key: [String: String] = ["type": "service_account", "project_id": "osprey-tests", "private_key_id": "1", "private_key": privateKey,
                                     "client_email": email, "token_uri": "http://127.0.0.1:\(server.port)/token"]
        serviceAccountKey = String(decoding: try JSONSerialization.data(withJSONObject: key), as: UTF8.self)
    }

    /// Tokens issued and objects and secrets read so far: `oauth`, `metadata`, `storage`, `secrets`.
    public func hits() throws -> [String: Int] {
        try JSONDecoder().decode([String: Int].self, from: try CurlGet.run(url + "/__hits").body)
    }

    public func stop() {
        server.end(SIGTERM)
        try? FileManager.default.removeItem(at: stateFile)
    }
}
