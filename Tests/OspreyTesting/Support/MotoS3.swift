#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real S3 API on 127.0.0.1: moto's server (`moto[server]` from PyPI, installed by
/// `make setup`) on a port of its own, with signatures checked. After the first three
/// requests (which make an IAM user, its access key and a policy allowing it S3) every
/// request must be signed with that key. `bucket` holds the files given.
public final class MotoS3: @unchecked Sendable {
    public let endpoint: String
    public let accessKeyID: String
    public let secretAccessKey: String
    private let server: SpawnedServer

    /// Starts moto, makes the user and `bucket`, and puts each of `objects` (key → bytes).
    public init(bucket: String, objects: [String: Data]) throws {
        server = try SpawnedServer.onFreePort(startingWithin: 60) {
            // Through the interpreter, not the `moto_server` script: pip may put scripts where PATH does not look.
            ["env", "INITIAL_NO_AUTH_ACTION_COUNT=3", "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "\($0)"]
        }
        endpoint = "http://127.0.0.1:\(server.port)"
        let script = """
            import base64, boto3, json, sys
            endpoint, bucket, objects = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
            iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
            iam.create_user(UserName="osprey")
            key = iam.create_access_key(UserName="osprey")["AccessKey"]
            policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
            iam.put_user_policy(UserName="osprey", PolicyName="s3", PolicyDocument=json.dumps(policy))
            s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                              aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
            s3.create_bucket(Bucket=bucket)
            for name, data in objects.items():
                s3.put_object(Bucket=bucket, Key=name, Body=base64.b64decode(data))
            print(key["AccessKeyId"])
            print(key["SecretAccessKey"])
            """
        let objectsFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-s3-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: objectsFile) }
        try JSONEncoder().encode(objects.mapValues { $0.base64EncodedString() }).write(to: objectsFile)
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, endpoint, bucket, objectsFile.path])
        let lines = outcome.output.split(separator: "\n").map(String.init)
        guard outcome.status == 0, lines.count == 2 else {
            server.end(SIGTERM)
            throw MotoS3Error.setupFailed(outcome.output)
        }
        (accessKeyID, secretAccessKey) = (lines[0], lines[1])
    }

    /// Stops the server.
    public func stop() { server.end(SIGTERM) }
}

public enum MotoS3Error: Error {
    case setupFailed(String)
}
