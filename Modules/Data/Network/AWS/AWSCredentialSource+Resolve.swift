import Foundation

extension AWSCredentialSource {
    /// The first source that applies, in the order of AWS's SDKs: the environment's keys, a web
    /// identity, the profile (`AWS_PROFILE`, else `default`) of the shared files, the
    /// container endpoint, the instance metadata service.
    /// - Throws: ``AWSCredentialError`` for a named profile that does not exist or cannot be
    ///   used, an unreadable shared file, a container URL AWS's SDKs would refuse, or no source.
    /// `config`: the shared files read already, if they were; else they are read here when needed.
    static func resolve(_ environment: [String: String], config given: AWSSharedConfig? = nil) throws(AWSCredentialError) -> AWSCredentialSource {
        if let fixed = environmentKeys(environment) { return fixed }
        if let tokenFile = nonEmpty(environment["AWS_WEB_IDENTITY_TOKEN_FILE"]), let role = nonEmpty(environment["AWS_ROLE_ARN"]) {
            return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: environment["AWS_ROLE_SESSION_NAME"] ?? defaultSessionName)
        }
        let named = nonEmpty(environment["AWS_PROFILE"]) ?? nonEmpty(environment["AWS_DEFAULT_PROFILE"])
        let config: AWSSharedConfig
        if let given { config = given } else { config = try AWSSharedConfig(environment: environment) }
        if config.profiles[named ?? "default"] != nil {
            if let source = try profile(named ?? "default", config, environment, visited: []) { return source }
        } else if let named {
            throw .profileNotFound(named)
        }
        if let container = try container(environment) { return container }
        guard !AWSEndpoints.isTrue(environment["AWS_EC2_METADATA_DISABLED"]) else { throw .noCredentials }
        let v1Disabled = environment["AWS_EC2_METADATA_V1_DISABLED"] ?? config.profiles[named ?? "default"]?["ec2_metadata_v1_disabled"]
        return .instanceMetadata(endpoint: instanceEndpoint(environment), allowsV1: !AWSEndpoints.isTrue(v1Disabled))
    }

    /// The region the environment or the profile names, if any.
    static func region(_ environment: [String: String], config: AWSSharedConfig?) -> String? {
        if let region = nonEmpty(environment["AWS_REGION"]) ?? nonEmpty(environment["AWS_DEFAULT_REGION"]) { return region }
        let named = nonEmpty(environment["AWS_PROFILE"]) ?? nonEmpty(environment["AWS_DEFAULT_PROFILE"]) ?? "default"
        return config?.profiles[named]?["region"]
    }

    static var defaultSessionName: String { "osprey-\(Int(Date().timeIntervalSince1970))" }

    private static func environmentKeys(_ environment: [String: String]) -> AWSCredentialSource? {
        guard let key = nonEmpty(environment["AWS_ACCESS_KEY_ID"]), let secret = nonEmpty(environment["AWS_SECRET_ACCESS_KEY"]) else { return nil }
        return .fixed(AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: nonEmpty(environment["AWS_SESSION_TOKEN"])),
                      from: "the environment")
    }

    /// What profile `name` gives: a role assumed (from another profile, a named source or a
    /// web identity), its own keys, or a credential process; `nil` when it sets none of them.
    private static func profile(_ name: String, _ config: AWSSharedConfig, _ environment: [String: String],
                                visited: Set<String>) throws(AWSCredentialError) -> AWSCredentialSource? {
        guard let values = config.profiles[name] else { throw .profileNotFound(name) }
        guard !visited.contains(name) else { throw .unsupportedProfile(name, reason: "its source_profile chain loops") }
        let keys = values["aws_access_key_id"].flatMap { key in
            values["aws_secret_access_key"].map { AWSCredentials(accessKeyID: key, secretAccessKey: $0, sessionToken: values["aws_session_token"]) }
        }
        if let role = values["role_arn"] {
            let session = values["role_session_name"] ?? defaultSessionName
            let base: AWSCredentialSource
            if let source = values["source_profile"] {
                if source == name, let keys {
                    base = .fixed(keys, from: "profile \(name)")
                } else {
                    guard let resolved = try profile(source, config, environment, visited: visited.union([name])) else {
                        throw .unsupportedProfile(name, reason: "its source_profile \(source) gives no credentials")
                    }
                    base = resolved
                }
            } else if let source = values["credential_source"] {
                switch source {
                case "Environment":
                    guard let fixed = environmentKeys(environment) else { throw .unsupportedProfile(name, reason: "credential_source Environment, but no keys are set") }
                    base = fixed
                case "Ec2InstanceMetadata": base = .instanceMetadata(endpoint: instanceEndpoint(environment))
                case "EcsContainer":
                    guard let container = try container(environment) else { throw .unsupportedProfile(name, reason: "credential_source EcsContainer outside a container") }
                    base = container
                default: throw .unsupportedProfile(name, reason: "unknown credential_source \(source)")
                }
            } else if let tokenFile = values["web_identity_token_file"] {
                return .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: session)
            } else {
                throw .unsupportedProfile(name, reason: "role_arn without source_profile, credential_source or web_identity_token_file")
            }
            return .assumeRole(roleARN: role, externalID: values["external_id"], sessionName: session, base: base)
        }
        if let keys { return .fixed(keys, from: "profile \(name)") }
        if let command = values["credential_process"] { return .process(command: command) }
        if values["sso_session"] != nil || values["sso_start_url"] != nil {
            return .singleSignOn(try AWSSingleSignOn(profile: name, values, sessions: config.ssoSessions, environment: environment))
        }
        return nil
    }

    /// ECS's endpoint: a path on 169.254.170.2, or a full URL, which AWS's SDKs accept only
    /// over https or on a loopback or the container agents' own addresses.
    private static func container(_ environment: [String: String]) throws(AWSCredentialError) -> AWSCredentialSource? {
        let url: URL
        if let relative = nonEmpty(environment["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"]) {
            guard let made = URL(string: "http://169.254.170.2" + relative) else { throw .serviceFailed(service: "the container endpoint", reason: "bad path \(relative)") }
            url = made
        } else if let full = nonEmpty(environment["AWS_CONTAINER_CREDENTIALS_FULL_URI"]) {
            guard let made = URL(string: full), let host = made.host(percentEncoded: false), let scheme = made.scheme?.lowercased(),
                  scheme == "https" || (scheme == "http" && containerHosts(host)) else {
                throw .serviceFailed(service: "the container endpoint", reason: "\(full) is neither https nor on a loopback or container-agent address")
            }
            url = made
        } else {
            return nil
        }
        return .container(url: url, authorization: nonEmpty(environment["AWS_CONTAINER_AUTHORIZATION_TOKEN"]),
                          authorizationFile: nonEmpty(environment["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"]))
    }

    private static func containerHosts(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if ["localhost", "169.254.170.2", "169.254.170.23", "fd00:ec2::23", "::1"].contains(bare) { return true }
        return bare.hasPrefix("127.")
    }

    private static func instanceEndpoint(_ environment: [String: String]) -> URL {
        if let endpoint = nonEmpty(environment["AWS_EC2_METADATA_SERVICE_ENDPOINT"]).flatMap(URL.init(string:)) { return endpoint }
        let ipv6 = environment["AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"]?.lowercased() == "ipv6"
        return URL(string: ipv6 ? "http://[fd00:ec2::254]" : "http://169.254.169.254")!
    }

    private static func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}
