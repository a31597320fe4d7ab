import CCrypto
import Foundation
import OspreyDomain

/// An IAM Identity Center (SSO) profile's role, as AWS's SDKs use one: the access token that
/// `aws sso login` left in `~/.aws/sso/cache/SHA1.json` (the SHA-1 of the `sso-session`'s name,
/// or of a legacy profile's start URL) exchanged at the portal's `GetRoleCredentials` for the
/// account's role. An expired token is not refreshed here: `aws sso login` renews it.
struct AWSSingleSignOn: Sendable, Equatable {
    let tokenFile: String
    let accountID: String
    let roleName: String
    /// The portal: `AWS_ENDPOINT_URL_SSO`, else `https://portal.sso.REGION.amazonaws.com`.
    let endpoint: URL

    /// The profile `values` names, with its session's settings from `sessions`.
    init(profile name: String, _ values: [String: String], sessions: [String: [String: String]],
         environment: [String: String]) throws(AWSCredentialError) {
        var settings = values
        let cacheKey: String
        if let session = values["sso_session"] {
            guard let sessionValues = sessions[session] else { throw .unsupportedProfile(name, reason: "no [sso-session \(session)] section") }
            settings.merge(sessionValues) { own, _ in own }
            cacheKey = session
        } else {
            guard let start = values["sso_start_url"] else { throw .unsupportedProfile(name, reason: "sso settings without sso_start_url") }
            cacheKey = start
        }
        guard let region = settings["sso_region"], let account = settings["sso_account_id"], let role = settings["sso_role_name"] else {
            throw .unsupportedProfile(name, reason: "an SSO profile needs sso_region, sso_account_id and sso_role_name")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        tokenFile = home + "/.aws/sso/cache/" + Self.sha1Hex(cacheKey) + ".json"
        accountID = account
        roleName = role
        endpoint = AWSEndpoints(environment: environment).configured(.sso) ?? URL(string: "https://portal.sso.\(region).amazonaws.com")!
    }

    /// The role's credentials, for the cached token.
    func credentials(_ network: CurlDataLoader) async throws(AWSCredentialError) -> AWSCredentials {
        let service = "IAM Identity Center"
        let token = try cachedToken()
        var components = URLComponents(url: endpoint.appendingPathComponent("federation/credentials"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "role_name", value: roleName), URLQueryItem(name: "account_id", value: accountID)]
        let answer: DataResponse
        do {
            answer = try await network.send(ServiceCall("GET", components.url!, headers: ["x-amz-sso_bearer_token": token]))
        } catch {
            throw .serviceFailed(service: service, reason: "\(error)")
        }
        guard answer.metadata.statusCode == 200 else {
            throw .serviceFailed(service: service, reason: "HTTP \(answer.metadata.statusCode): \(String(decoding: answer.data.prefix(200), as: UTF8.self))")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: answer.data)) as? [String: Any],
              let role = object["roleCredentials"] as? [String: Any], let key = role["accessKeyId"] as? String,
              let secret = role["secretAccessKey"] as? String else {
            throw .serviceFailed(service: service, reason: "the answer has no roleCredentials")
        }
        let expiration = (role["expiration"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: role["sessionToken"] as? String, expiration: expiration)
    }

    /// The access token `aws sso login` cached, while it has not expired.
    private func cachedToken() throws(AWSCredentialError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: tokenFile))
        } catch {
            throw .unreadableFile(path: tokenFile, reason: "\(error.localizedDescription); run aws sso login")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any], let token = object["accessToken"] as? String else {
            throw .serviceFailed(service: "IAM Identity Center", reason: "\(tokenFile) has no accessToken")
        }
        if let expires = (object["expiresAt"] as? String).flatMap(AWSAnswer.date), expires <= Date() {
            throw .serviceFailed(service: "IAM Identity Center", reason: "the SSO token expired at \(expires); run aws sso login")
        }
        return token
    }

    static func sha1Hex(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        let bytes = Array(text.utf8)
        _ = SHA1(bytes, bytes.count, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
