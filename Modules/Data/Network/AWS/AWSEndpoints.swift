import Foundation

/// Where AWS's services answer, as the SDKs work it out from the environment:
/// `AWS_ENDPOINT_URL_<SERVICE>`, then `AWS_ENDPOINT_URL`, unless
/// `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is true; else the service's regional address.
package struct AWSEndpoints: Sendable {
    package let environment: [String: String]

    package init(environment: [String: String]) { self.environment = environment }

    /// A service as the endpoint variables and AWS's host names call it.
    package struct Service: Sendable {
        /// The suffix of `AWS_ENDPOINT_URL_<…>`: `STS`, `S3`, `SECRETS_MANAGER`, `SSM`.
        package let variable: String
        /// The first label of its host name: `sts`, `s3`, `secretsmanager`, `ssm`.
        package let host: String

        package static let sts = Service(variable: "STS", host: "sts")
        package static let s3 = Service(variable: "S3", host: "s3")
        package static let secretsManager = Service(variable: "SECRETS_MANAGER", host: "secretsmanager")
        package static let ssm = Service(variable: "SSM", host: "ssm")
        package static let sso = Service(variable: "SSO", host: "portal.sso")
    }

    /// The endpoint configured for `service`, if any.
    package func configured(_ service: Service) -> URL? {
        guard !Self.isTrue(environment["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"]) else { return nil }
        let text = environment["AWS_ENDPOINT_URL_" + service.variable] ?? environment["AWS_ENDPOINT_URL"]
        return text.flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    /// The configured endpoint of `service`, else AWS's in `region`.
    package func url(_ service: Service, region: String) -> URL {
        configured(service) ?? URL(string: "https://\(service.host).\(region).amazonaws.com")!
    }

    package static func isTrue(_ value: String?) -> Bool { value.map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false }
}
