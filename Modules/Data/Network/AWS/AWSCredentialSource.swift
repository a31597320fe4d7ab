import Foundation
import OspreyDomain

/// Where an ``AWSCredentialChain`` takes its credentials from, chosen once at start in the
/// SDKs' order, and fetched again whenever the ones held are about to expire.
indirect enum AWSCredentialSource: Sendable, Equatable {
    /// Keys given as they are, by the environment or a profile.
    case fixed(AWSCredentials, from: String)
    /// `AssumeRoleWithWebIdentity` with the token in a file (EKS's service-account tokens;
    /// the file is read again at every renewal, as the token rotates).
    case webIdentity(tokenFile: String, roleARN: String, sessionName: String)
    /// A profile's `credential_process`: a command printing the credentials as JSON.
    case process(command: String)
    /// ECS's (or EKS Pod Identity's) container endpoint, with its authorization token given
    /// or in a file.
    case container(url: URL, authorization: String?, authorizationFile: String?)
    /// EC2's instance metadata service, version 2 (a session token first); version 1 when
    /// the token is refused (403, 404, 405: an older or proxied service) and `allowsV1`, as
    /// AWS's SDKs fall back unless `AWS_EC2_METADATA_V1_DISABLED`.
    case instanceMetadata(endpoint: URL, allowsV1: Bool = true)
    /// An IAM Identity Center profile's role, for the token `aws sso login` cached.
    case singleSignOn(AWSSingleSignOn)
    /// `AssumeRole`, signed with what `base` gives.
    case assumeRole(roleARN: String, externalID: String?, sessionName: String, base: AWSCredentialSource)

    /// What a fetch needs: the loader the credential services are called through, and STS.
    struct Context: Sendable {
        let network: CurlDataLoader
        let sts: STSClient
    }

    /// Who gives the credentials, for logs.
    var name: String {
        switch self {
        case .fixed(_, let origin): origin
        case .webIdentity(_, let role, _): "web identity for \(role)"
        case .process: "a credential process"
        case .container(let url, _, _): "the container endpoint \(url.absoluteString)"
        case .instanceMetadata(let endpoint, _): "the instance metadata service at \(endpoint.absoluteString)"
        case .singleSignOn(let sso): "IAM Identity Center's \(sso.roleName) in \(sso.accountID)"
        case let .assumeRole(role, _, _, base): "\(role) assumed with \(base.name)"
        }
    }

    func fetch(_ context: Context) async throws(AWSCredentialError) -> AWSCredentials {
        switch self {
        case .fixed(let credentials, _):
            return credentials
        case let .webIdentity(tokenFile, roleARN, sessionName):
            let token = try Self.read(tokenFile)
            return try await context.sts.assumeRoleWithWebIdentity(roleARN: roleARN, sessionName: sessionName, token: token)
        case .process(let command):
            return try Self.run(command)
        case let .container(url, authorization, authorizationFile):
            var headers: [String: String] = [:]
            if let token = try authorizationFile.map(Self.read) ?? authorization { headers["Authorization"] = token }
            let answer = try await Self.get(ServiceCall("GET", url, headers: headers), context, service: "the container endpoint")
            return try AWSAnswer.credentials(json: answer, from: "the container endpoint")
        case let .instanceMetadata(endpoint, allowsV1):
            return try await Self.instanceCredentials(endpoint, allowsV1: allowsV1, context)
        case .singleSignOn(let sso):
            return try await sso.credentials(context.network)
        case let .assumeRole(roleARN, externalID, sessionName, base):
            let credentials = try await base.fetch(context)
            return try await context.sts.assumeRole(roleARN: roleARN, sessionName: sessionName, externalID: externalID, with: credentials)
        }
    }

    /// IMDSv2: a session token by PUT, the role's name, then its credentials; without the
    /// token (IMDSv1) when the service refuses to give one and `allowsV1`.
    private static func instanceCredentials(_ endpoint: URL, allowsV1: Bool, _ context: Context) async throws(AWSCredentialError) -> AWSCredentials {
        let service = "the instance metadata service"
        let base = endpoint.absoluteString.hasSuffix("/") ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
        let tokenCall = ServiceCall("PUT", URL(string: base + "/latest/api/token")!, headers: ["X-aws-ec2-metadata-token-ttl-seconds": "21600"],
                                    body: Data())
        let tokenAnswer: DataResponse
        do {
            tokenAnswer = try await context.network.send(tokenCall)
        } catch {
            throw .serviceFailed(service: service, reason: "\(error)")
        }
        var headers: [String: String] = [:]
        let status = tokenAnswer.metadata.statusCode
        if status == 200 {
            headers["X-aws-ec2-metadata-token"] = String(decoding: tokenAnswer.data, as: UTF8.self)
        } else if !(allowsV1 && [403, 404, 405].contains(status)) {
            throw .serviceFailed(service: service, reason: "HTTP \(status) for \(tokenCall.url.absoluteString)")
        }
        let roles = URL(string: base + "/latest/meta-data/iam/security-credentials/")!
        let listing = String(decoding: try await get(ServiceCall("GET", roles, headers: headers), context, service: service), as: UTF8.self)
        guard let role = listing.split(whereSeparator: \.isNewline).first.map(String.init), !role.isEmpty else {
            throw .serviceFailed(service: service, reason: "the instance has no IAM role")
        }
        let credentials = roles.appendingPathComponent(role)
        return try AWSAnswer.credentials(json: try await get(ServiceCall("GET", credentials, headers: headers), context, service: service),
                                         from: service)
    }

    /// The body of a 200 answer to `call`.
    private static func get(_ call: ServiceCall, _ context: Context, service: String) async throws(AWSCredentialError) -> Data {
        let answer: DataResponse
        do {
            answer = try await context.network.send(call)
        } catch {
            throw .serviceFailed(service: service, reason: "\(error)")
        }
        guard answer.metadata.statusCode == 200 else {
            throw .serviceFailed(service: service, reason: "HTTP \(answer.metadata.statusCode) for \(call.url.absoluteString)")
        }
        return answer.data
    }

    static func read(_ path: String) throws(AWSCredentialError) -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    /// Runs a `credential_process` through the shell, as the SDKs do, and reads its JSON.
    private static func run(_ command: String) throws(AWSCredentialError) -> AWSCredentials {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw .serviceFailed(service: "credential_process", reason: error.localizedDescription)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .serviceFailed(service: "credential_process", reason: "\(command) exited with \(process.terminationStatus)")
        }
        return try AWSAnswer.credentials(json: data, from: "credential_process")
    }
}
