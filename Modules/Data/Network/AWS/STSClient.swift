import Foundation
import OspreyDomain

/// The two calls of AWS STS the credential chain makes, over its query API (form POST, XML
/// answers): `AssumeRoleWithWebIdentity`, unsigned, and `AssumeRole`, signed.
struct STSClient: Sendable {
    let network: CurlDataLoader
    let endpoint: URL
    let region: String

    func assumeRoleWithWebIdentity(roleARN: String, sessionName: String, token: String) async throws(AWSCredentialError) -> AWSCredentials {
        try await call("AssumeRoleWithWebIdentity", [("RoleArn", roleARN), ("RoleSessionName", sessionName), ("WebIdentityToken", token)],
                       signing: nil)
    }

    func assumeRole(roleARN: String, sessionName: String, externalID: String?, with credentials: AWSCredentials) async throws(AWSCredentialError) -> AWSCredentials {
        var parameters = [("RoleArn", roleARN), ("RoleSessionName", sessionName)]
        if let externalID { parameters.append(("ExternalId", externalID)) }
        return try await call("AssumeRole", parameters, signing: credentials.signing(region: region, service: "sts"))
    }

    private func call(_ action: String, _ parameters: [(String, String)], signing: AWSSigning?) async throws(AWSCredentialError) -> AWSCredentials {
        let service = "STS \(action) at \(endpoint.absoluteString)"
        let body = ServiceCall.form([("Action", action), ("Version", "2011-06-15")] + parameters)
        let answer: DataResponse
        do {
            answer = try await network.send(ServiceCall("POST", endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
                                                        body: Data(body.utf8), signing: signing))
        } catch {
            throw .serviceFailed(service: service, reason: "\(error)")
        }
        let xml = String(decoding: answer.data, as: UTF8.self)
        guard answer.metadata.statusCode == 200 else {
            let code = AWSAnswer.xmlValue("Code", in: xml) ?? "HTTP \(answer.metadata.statusCode)"
            throw .serviceFailed(service: service, reason: "\(code): \(AWSAnswer.xmlValue("Message", in: xml) ?? "")")
        }
        guard let key = AWSAnswer.xmlValue("AccessKeyId", in: xml), let secret = AWSAnswer.xmlValue("SecretAccessKey", in: xml) else {
            throw .serviceFailed(service: service, reason: "the answer has no credentials")
        }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: AWSAnswer.xmlValue("SessionToken", in: xml),
                              expiration: AWSAnswer.xmlValue("Expiration", in: xml).flatMap(AWSAnswer.date))
    }
}
