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
    /// A role with the same rights (`osprey-reader`, trusting anyone), and temporary
    /// credentials of it that moto's STS gave (`AssumeRole`): key, secret, session token.
    public let roleARN: String
    public let roleCredentials: (accessKeyID: String, secretAccessKey: String, sessionToken: String)
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
            rights = ["s3:*", "iam:*", "sts:*", "secretsmanager:*", "ssm:*"]
            policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": rights, "Resource": "*"}]}
            iam.put_user_policy(UserName="osprey", PolicyName="s3", PolicyDocument=json.dumps(policy))
            signed = dict(endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
            trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]}
            role = boto3.client("iam", **signed).create_role(RoleName="osprey-reader", AssumeRolePolicyDocument=json.dumps(trust))["Role"]
            boto3.client("iam", **signed).put_role_policy(RoleName="osprey-reader", PolicyName="s3", PolicyDocument=json.dumps(policy))
            assumed = boto3.client("sts", **signed).assume_role(RoleArn=role["Arn"], RoleSessionName="osprey-tests")["Credentials"]
            s3 = boto3.client("s3", **signed)
            s3.create_bucket(Bucket=bucket)
            s3.put_bucket_versioning(Bucket=bucket, VersioningConfiguration={"Status": "Enabled"})
            for name, data in objects.items():
                s3.put_object(Bucket=bucket, Key=name, Body=base64.b64decode(data))
            print(key["AccessKeyId"])
            print(key["SecretAccessKey"])
            print(role["Arn"])
            print(assumed["AccessKeyId"])
            print(assumed["SecretAccessKey"])
            print(assumed["SessionToken"])
            """
        let objectsFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-s3-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: objectsFile) }
        try JSONEncoder().encode(objects.mapValues { $0.base64EncodedString() }).write(to: objectsFile)
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, endpoint, bucket, objectsFile.path])
        let lines = outcome.output.split(separator: "\n").map(String.init)
        guard outcome.status == 0, lines.count == 6 else {
            server.end(SIGTERM)
            throw MotoS3Error.setupFailed(outcome.output)
        }
        (accessKeyID, secretAccessKey, roleARN) = (lines[0], lines[1], lines[2])
        roleCredentials = (lines[3], lines[4], lines[5])
    }

    /// Puts `data` at `key` in `bucket` as a new version (the bucket keeps versions), and
    /// answers its version ID.
    public func put(_ data: Data, at key: String, in bucket: String) throws -> String {
        let script = """
            import boto3, sys
            s3 = boto3.client("s3", endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3])
            print(s3.put_object(Bucket=sys.argv[4], Key=sys.argv[5], Body=open(sys.argv[6], "rb").read())["VersionId"])
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-s3-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, endpoint, accessKeyID, secretAccessKey, bucket, key, file.path])
        guard outcome.status == 0, let version = outcome.output.split(separator: "\n").last else { throw MotoS3Error.setupFailed(outcome.output) }
        return String(version)
    }

    /// Stores `text` as the Secrets Manager secret `name`.
    public func putSecret(_ name: String, _ text: String) throws {
        try python("boto3.client('secretsmanager', **signed).create_secret(Name=sys.argv[1], SecretString=sys.argv[2])", [name, text])
    }

    /// Stores `value` as the SSM parameter `name`, a SecureString.
    public func putParameter(_ name: String, _ value: String) throws {
        try python("boto3.client('ssm', **signed).put_parameter(Name=sys.argv[1], Value=sys.argv[2], Type='SecureString')", [name, value])
    }

    /// Runs `statement` with boto3 and `signed` (this user's client arguments), arguments from 1.
    private func python(_ statement: String, _ arguments: [String]) throws {
        let script = """
            import boto3, sys
            endpoint, key, secret = sys.argv.pop(), sys.argv.pop(), sys.argv.pop()
            signed = dict(endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key, aws_secret_access_key=secret)
            \(statement)
            """
        let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script] + arguments + [secretAccessKey, accessKeyID, endpoint])
        guard outcome.status == 0 else { throw MotoS3Error.setupFailed(outcome.output) }
    }

    /// Stops the server.
    public func stop() { server.end(SIGTERM) }
}

public enum MotoS3Error: Error {
    case setupFailed(String)
}
