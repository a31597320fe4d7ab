import Foundation
import OspreyDomain

/// A call to an AWS service speaking the JSON 1.1 protocol (Secrets Manager, SSM): a POST of
/// a JSON object naming its operation in `X-Amz-Target`, signed with the chain's credentials.
package struct AWSJSONClient: Sendable {
    let network: CurlDataLoader
    let endpoint: URL
    let region: String
    /// The signing name (`secretsmanager`, `ssm`) and the target's prefix (`secretsmanager`, `AmazonSSM`).
    let service: String
    let targetPrefix: String
    let credentials: any AWSCredentialProviding

    package init(network: CurlDataLoader, endpoint: URL, region: String, service: String, targetPrefix: String,
                 credentials: any AWSCredentialProviding) {
        self.network = network
        self.endpoint = endpoint
        self.region = region
        self.service = service
        self.targetPrefix = targetPrefix
        self.credentials = credentials
    }

    /// The answer to `operation` with `input`, as a JSON object.
    /// - Throws: ``AWSCredentialError`` without credentials; `AWSServiceError` for an
    ///   answer other than 200 (AWS's `__type` and message) or no answer.
    package func call(_ operation: String, _ input: [String: Any]) async throws -> [String: Any] {
        let signing = try await credentials.credentials().signing(region: region, service: service)
        let body = try JSONSerialization.data(withJSONObject: input)
        let headers = ["Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "\(targetPrefix).\(operation)"]
        let answer: DataResponse
        do {
            answer = try await network.send(ServiceCall("POST", endpoint, headers: headers, body: body, signing: signing))
        } catch {
            throw AWSServiceError(operation: operation, reason: "\(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: answer.data)) as? [String: Any]
        guard answer.metadata.statusCode == 200, let object else {
            let type = (object?["__type"] as? String).map { $0.split(separator: "#").last.map(String.init) ?? $0 } ?? "HTTP \(answer.metadata.statusCode)"
            let message = object?["message"] as? String ?? object?["Message"] as? String ?? ""
            throw AWSServiceError(operation: operation, reason: message.isEmpty ? type : "\(type): \(message)")
        }
        return object
    }
}

/// An AWS service's refusal of a call, or no answer.
package struct AWSServiceError: Error, CustomStringConvertible {
    package let operation: String
    package let reason: String
    package var description: String { "\(operation) failed: \(reason)" }
}
