import Foundation
import Osprey
import OspreyNetwork

/// The places imgproxy reads more variables from before its settings, in its order, each
/// over what came before: an AWS Secrets Manager secret holding an env file
/// (`IMGPROXY_ENV_AWS_SECRET_ID`, `_VERSION_ID` or `_VERSION_STAGE`, `_REGION`), the AWS SSM
/// parameters under a path (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`, `_REGION`: each
/// parameter's name after the path, its `/` made `_`), a Google Secret Manager secret holding
/// an env file (`IMGPROXY_ENV_GCP_SECRET_ID`, `_PROJECT_ID`, `_VERSION_ID`, `IMGPROXY_ENV_GCP_KEY`),
/// and a local env file (`IMGPROXY_ENV_LOCAL_FILE_PATH`). The AWS calls take their credentials from
/// ``AWSCredentialChain`` over the variables read so far.
///
/// ```swift
/// let environment = try await EnvironmentSources.load(ProcessInfo.processInfo.environment)
/// let (configuration, notices) = try ServerSettings.read(arguments: arguments, environment: environment)
/// ```
public enum EnvironmentSources {
    /// The variables read here (without `IMGPROXY_`), before the settings.
    package static let variables: Set<String> = [
        "ENV_AWS_SECRET_ID", "ENV_AWS_SECRET_VERSION_ID", "ENV_AWS_SECRET_VERSION_STAGE", "ENV_AWS_SECRET_REGION",
        "ENV_AWS_SSM_PARAMETERS_PATH", "ENV_AWS_SSM_PARAMETERS_REGION", "ENV_LOCAL_FILE_PATH",
        "ENV_GCP_SECRET_ID", "ENV_GCP_SECRET_VERSION_ID", "ENV_GCP_SECRET_PROJECT_ID", "ENV_GCP_KEY",
    ]

    /// `environment` with every source's variables over it.
    /// - Throws: ``ServerSettingError`` naming the source that failed and why.
    public static func load(_ environment: [String: String]) async throws(ServerSettingError) -> [String: String] {
        var environment = environment
        if let secret = value("IMGPROXY_ENV_AWS_SECRET_ID", environment) {
            environment.merge(try await awsSecret(secret, environment)) { $1 }
        }
        if let path = value("IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH", environment) {
            environment.merge(try await ssmParameters(path, environment)) { $1 }
        }
        if let secret = value("IMGPROXY_ENV_GCP_SECRET_ID", environment) {
            environment.merge(try await gcpSecret(secret, environment)) { $1 }
        }
        if let path = value("IMGPROXY_ENV_LOCAL_FILE_PATH", environment) {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ServerSettingError(name: "IMGPROXY_ENV_LOCAL_FILE_PATH", reason: "cannot read \(path): \(error.localizedDescription)")
            }
            environment.merge(try EnvironmentFile.parse(text, source: path, environment: environment)) { $1 }
        }
        return environment
    }

    private static func awsSecret(_ id: String, _ environment: [String: String]) async throws(ServerSettingError) -> [String: String] {
        let name = "IMGPROXY_ENV_AWS_SECRET_ID"
        var input: [String: Any] = ["SecretId": id]
        if let version = value("IMGPROXY_ENV_AWS_SECRET_VERSION_ID", environment) {
            input["VersionId"] = version
        } else if let stage = value("IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE", environment) {
            input["VersionStage"] = stage
        }
        let client = try client(.secretsManager, target: "secretsmanager", region: value("IMGPROXY_ENV_AWS_SECRET_REGION", environment), environment, name)
        let answer = try await call(client, "GetSecretValue", input, name)
        guard let text = answer["SecretString"] as? String else { return [:] }  // a binary secret holds no env file
        return try EnvironmentFile.parse(text, source: "the AWS secret \(id)", environment: environment)
    }

    private static func ssmParameters(_ path: String, _ environment: [String: String]) async throws(ServerSettingError) -> [String: String] {
        let name = "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH"
        let client = try client(.ssm, target: "AmazonSSM", region: value("IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION", environment), environment, name)
        var variables: [String: String] = [:]
        var token: String?
        repeat {
            var input: [String: Any] = ["Path": path, "Recursive": true, "WithDecryption": true]
            if let token { input["NextToken"] = token }
            let answer = try await call(client, "GetParametersByPath", input, name)
            for parameter in answer["Parameters"] as? [[String: Any]] ?? [] {
                guard let full = parameter["Name"] as? String, let value = parameter["Value"] as? String,
                      (parameter["DataType"] as? String ?? "text") == "text", full.hasPrefix(path) else { continue }
                let variable = full.dropFirst(path.count).drop { $0 == "/" }.replacingOccurrences(of: "/", with: "_")
                if !variable.isEmpty { variables[variable] = value }
            }
            token = answer["NextToken"] as? String
        } while token != nil
        return variables
    }

    /// A Google Secret Manager secret's version (`latest` by default) holding an env file, read
    /// with `IMGPROXY_ENV_GCP_KEY` (a service account's key) or as Google's libraries find
    /// credentials; `OSPREY_GCP_SECRET_MANAGER_ENDPOINT` moves the API (an emulator, a private one).
    private static func gcpSecret(_ id: String, _ environment: [String: String]) async throws(ServerSettingError) -> [String: String] {
        let name = "IMGPROXY_ENV_GCP_SECRET_ID"
        guard let project = value("IMGPROXY_ENV_GCP_SECRET_PROJECT_ID", environment) else {
            throw ServerSettingError(name: name, reason: "set IMGPROXY_ENV_GCP_SECRET_PROJECT_ID, the secret's project")
        }
        let version = value("IMGPROXY_ENV_GCP_SECRET_VERSION_ID", environment) ?? "latest"
        let base = value("OSPREY_GCP_SECRET_MANAGER_ENDPOINT", environment) ?? "https://secretmanager.googleapis.com"
        let segments = [project, id, version].map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? $0 }
        guard let url = URL(string: "\(base)/v1/projects/\(segments[0])/secrets/\(segments[1])/versions/\(segments[2]):access") else {
            throw ServerSettingError(name: name, reason: "\(base) is not a URL")
        }
        let text: String
        do {
            let credentials = try GCSCredentials(key: value("IMGPROXY_ENV_GCP_KEY", environment), environment: environment,
                                                 scope: GCSCredentials.cloudPlatformScope)
            let headers = try await credentials.authorization().map { ["Authorization": $0] } ?? [:]
            let network = CurlDataLoader(configuration: CurlDataLoader.Configuration(connectTimeout: 5, transferTimeout: 30, maxRetries: 0))
            let answer = try await network.send(ServiceCall("GET", url, headers: headers))
            let object = (try? JSONSerialization.jsonObject(with: answer.data)) as? [String: Any]
            guard answer.metadata.statusCode == 200, let payload = object?["payload"] as? [String: Any] else {
                let message = (object?["error"] as? [String: Any])?["message"] as? String ?? "HTTP \(answer.metadata.statusCode)"
                throw ServerSettingError(name: name, reason: "Secret Manager: \(message)")
            }
            guard let data = (payload["data"] as? String).flatMap({ Data(base64Encoded: $0) }) else { return [:] }
            text = String(decoding: data, as: UTF8.self)
        } catch let error as ServerSettingError {
            throw error
        } catch {
            throw ServerSettingError(name: name, reason: "\(error)")
        }
        return try EnvironmentFile.parse(text, source: "the Google Cloud secret \(id)", environment: environment)
    }

    private static func client(_ service: AWSEndpoints.Service, target: String, region: String?, _ environment: [String: String],
                               _ name: String) throws(ServerSettingError) -> AWSJSONClient {
        let chain: AWSCredentialChain
        do {
            chain = try AWSCredentialChain(environment: environment)
        } catch {
            throw ServerSettingError(name: name, reason: error.description)
        }
        let region = region ?? chain.region ?? "us-west-1"
        return AWSJSONClient(network: CurlDataLoader(configuration: CurlDataLoader.Configuration(connectTimeout: 5, transferTimeout: 30, maxRetries: 0)),
                             endpoint: AWSEndpoints(environment: environment).url(service, region: region), region: region,
                             service: service.host, targetPrefix: target, credentials: chain)
    }

    private static func call(_ client: AWSJSONClient, _ operation: String, _ input: [String: Any], _ name: String) async throws(ServerSettingError) -> [String: Any] {
        do {
            return try await client.call(operation, input)
        } catch {
            throw ServerSettingError(name: name, reason: "\(error)")
        }
    }

    private static func value(_ name: String, _ environment: [String: String]) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
