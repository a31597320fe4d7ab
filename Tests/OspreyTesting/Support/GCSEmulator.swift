#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A Cloud Storage JSON API on 127.0.0.1: `gcp-storage-emulator` from PyPI (installed by
/// `make setup`), in memory, with `bucket` holding the objects given. It asks for no token.
public final class GCSEmulator: @unchecked Sendable {
    /// The JSON API's base: `http://127.0.0.1:PORT/storage/v1`.
    public let endpoint: String
    /// What `STORAGE_EMULATOR_HOST` is set to for it.
    public let host: String
    private let server: SpawnedServer

    public init(bucket: String, objects: [String: Data]) throws {
        server = try SpawnedServer.onFreePort(startingWithin: 60) {
            ["/usr/bin/env", "python3", "-m", "gcp_storage_emulator", "start", "-H", "127.0.0.1", "--port", "\($0)", "--in-memory", "-q",
             "--default-bucket", bucket]
        }
        host = "127.0.0.1:\(server.port)"
        endpoint = "http://\(host)/storage/v1"
        for (name, data) in objects {
            let script = """
                import requests, sys, urllib.parse
                url = sys.argv[1] + "/upload/storage/v1/b/" + sys.argv[2] + "/o?uploadType=media&name=" + urllib.parse.quote(sys.argv[3], safe="")
                answer = requests.post(url, data=open(sys.argv[4], "rb").read(), headers={"Content-Type": "application/octet-stream"})
                answer.raise_for_status()
                """
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-gcs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            try data.write(to: file)
            let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, "http://\(host)", bucket, name, file.path])
            guard outcome.status == 0 else {
                server.end(SIGTERM)
                throw MotoS3Error.setupFailed(outcome.output)
            }
        }
    }

    public func stop() { server.end(SIGTERM) }
}
