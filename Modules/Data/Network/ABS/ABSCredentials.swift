import Foundation
import OspreyDomain

/// What authorises requests to Azure Blob Storage, as imgproxy and Azure's SDKs find it: the
/// account key (imgproxy's `IMGPROXY_ABS_KEY`, Shared Key signing); a SAS token
/// (`AZURE_STORAGE_SAS_TOKEN`); else a Microsoft Entra token: a service principal's secret
/// (`AZURE_TENANT_ID`, `AZURE_CLIENT_ID`, `AZURE_CLIENT_SECRET`) or certificate
/// (`AZURE_CLIENT_CERTIFICATE_PATH`, `AZURE_CLIENT_CERTIFICATE_PASSWORD`), a workload identity
/// (`AZURE_FEDERATED_TOKEN_FILE`, as AKS sets it), or the managed identity (App Service's
/// `IDENTITY_ENDPOINT`, else the instance metadata service). Tokens are fetched at the first
/// request, shared, and fetched again five minutes before they expire.
public final class ABSCredentials: Sendable {
    enum Source: Sendable {
        case sharedKey(ABSSharedKey)
        case sas(String)
        case clientSecret(tokenURL: URL, clientID: String, secret: String)
        case clientCertificate(tokenURL: URL, clientID: String, certificate: ABSClientCertificate)
        case workloadIdentity(tokenURL: URL, clientID: String, tokenFile: String)
        case managedIdentity(URL, header: (name: String, value: String)?)

        var name: String {
            switch self {
            case .sharedKey(let key): "the account key of \(key.account)"
            case .sas: "a SAS token"
            case .clientSecret(_, let client, _), .clientCertificate(_, let client, _): "the service principal \(client)"
            case .workloadIdentity(_, let client, _): "the workload identity \(client)"
            case .managedIdentity(let url, _): "the managed identity at \(url.host ?? "")"
            }
        }
    }

    let source: Source
    private let network: CurlDataLoader
    private let cache = RenewingCache<OAuthToken>(margin: 5 * 60) { $0.expiration }
    static let resource = "https://storage.azure.com/"

    /// - Parameters:
    ///   - account: the storage account's name.
    ///   - key: the account key (base64); `nil` looks for a SAS token, then an Entra identity.
    /// - Throws: ``ABSCredentialError`` for a key that is not base64 or an identity missing a part.
    public init(account: String, key: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                network: CurlDataLoader? = nil) throws(ABSCredentialError) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let authority = (value("AZURE_AUTHORITY_HOST") ?? "https://login.microsoftonline.com").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        func tokenURL() throws(ABSCredentialError) -> URL {
            guard let tenant = value("AZURE_TENANT_ID") else { throw .incomplete("AZURE_TENANT_ID is not set") }
            guard let url = URL(string: "\(authority)/\(tenant)/oauth2/v2.0/token") else { throw .incomplete("AZURE_AUTHORITY_HOST is not a URL") }
            return url
        }
        if let key, !key.isEmpty {
            source = .sharedKey(try ABSSharedKey(account: account, base64Key: key))
        } else if let sas = value("AZURE_STORAGE_SAS_TOKEN") {
            source = .sas(sas.hasPrefix("?") ? String(sas.dropFirst()) : sas)
        } else if let secret = value("AZURE_CLIENT_SECRET") {
            guard let client = value("AZURE_CLIENT_ID") else { throw .incomplete("AZURE_CLIENT_ID is not set") }
            source = .clientSecret(tokenURL: try tokenURL(), clientID: client, secret: secret)
        } else if let path = value("AZURE_CLIENT_CERTIFICATE_PATH") {
            guard let client = value("AZURE_CLIENT_ID") else { throw .incomplete("AZURE_CLIENT_ID is not set") }
            source = .clientCertificate(tokenURL: try tokenURL(), clientID: client,
                                        certificate: ABSClientCertificate(path: path, password: value("AZURE_CLIENT_CERTIFICATE_PASSWORD"),
                                                                          sendsChain: ["true", "1"].contains(value("AZURE_CLIENT_CERTIFICATE_CHAIN")?.lowercased() ?? "")))
        } else if let file = value("AZURE_FEDERATED_TOKEN_FILE") {
            guard let client = value("AZURE_CLIENT_ID") else { throw .incomplete("AZURE_CLIENT_ID is not set") }
            source = .workloadIdentity(tokenURL: try tokenURL(), clientID: client, tokenFile: file)
        } else if let endpoint = value("IDENTITY_ENDPOINT"), let header = value("IDENTITY_HEADER") {
            var components = URLComponents(string: endpoint)
            let given = components?.queryItems ?? []
            components?.queryItems = given + [URLQueryItem(name: "api-version", value: "2019-08-01"), URLQueryItem(name: "resource", value: Self.resource)]
                + (value("AZURE_CLIENT_ID").map { [URLQueryItem(name: "client_id", value: $0)] } ?? [])
            guard let url = components?.url else { throw .incomplete("IDENTITY_ENDPOINT is not a URL") }
            source = .managedIdentity(url, header: ("X-IDENTITY-HEADER", header))
        } else {
            let host = value("AZURE_IMDS_ENDPOINT") ?? "http://169.254.169.254"
            var components = URLComponents(string: host + "/metadata/identity/oauth2/token")
            components?.queryItems = [URLQueryItem(name: "api-version", value: "2018-02-01"), URLQueryItem(name: "resource", value: Self.resource)]
                + (value("AZURE_CLIENT_ID").map { [URLQueryItem(name: "client_id", value: $0)] } ?? [])
            guard let url = components?.url else { throw .incomplete("AZURE_IMDS_ENDPOINT is not a URL") }
            source = .managedIdentity(url, header: ("Metadata", "true"))
        }
        self.network = network ?? CurlDataLoader(configuration: CurlDataLoader.Configuration(connectTimeout: 2, transferTimeout: 10, maxRetries: 0))
    }

    /// Who authorises the requests, for logs.
    public var sourceName: String { source.name }

    /// `request` (a GET of `url`) authorised: a SAS token added to the query, or a Shared Key
    /// or bearer `Authorization` header, with `x-ms-date` and `x-ms-version`.
    /// - Throws: ``ABSCredentialError`` when no token can be had.
    func authorize(_ request: DataRequest) async throws -> DataRequest {
        var request = request
        request.headers["x-ms-version"] = "2021-08-06"
        request.headers["x-ms-date"] = HTTPDate.string(from: Date())
        switch source {
        case .sharedKey(let key):
            var signed = request.headers
            if let validators = request.validators {  // the transfer sends them; they are signed
                if let etag = validators.etag { signed["If-None-Match"] = etag }
                if let lastModified = validators.lastModified { signed["If-Modified-Since"] = lastModified }
            }
            request.headers["Authorization"] = key.authorization(method: "GET", url: request.url, headers: signed)
        case .sas(let token):
            var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = [components.percentEncodedQuery, token].compactMap { $0 }.joined(separator: "&")
            request.url = components.url!
        default:
            let source = source, network = network
            request.headers["Authorization"] = "Bearer " + (try await cache.value { try await Self.fetch(source, network) }).value
        }
        return request
    }

    /// A federated token read from its file, or an assertion signed with the certificate's key.
    private static func clientAssertion(_ source: Source, tokenURL: URL, clientID: String) throws(ABSCredentialError) -> String {
        switch source {
        case .clientCertificate(_, _, let certificate):
            return try certificate.assertion(tokenURL: tokenURL, clientID: clientID)
        case .workloadIdentity(_, _, let file):
            guard let assertion = try? String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) else {
                throw .incomplete("cannot read \(file)")
            }
            return assertion
        default:
            throw .tokenFailed(service: source.name, reason: "it makes no client assertion")
        }
    }

    private static func fetch(_ source: Source, _ network: CurlDataLoader) async throws(ABSCredentialError) -> OAuthToken {
        let call: ServiceCall
        switch source {
        case .sharedKey, .sas:
            throw .tokenFailed(service: source.name, reason: "it needs no token")
        case let .clientSecret(url, client, secret):
            let form = ServiceCall.form([("grant_type", "client_credentials"), ("client_id", client), ("client_secret", secret),
                                         ("scope", resource + ".default")])
            call = ServiceCall("POST", url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        case let .workloadIdentity(url, client, _), let .clientCertificate(url, client, _):
            let assertion = try clientAssertion(source, tokenURL: url, clientID: client)
            let form = ServiceCall.form([("grant_type", "client_credentials"), ("client_id", client), ("scope", resource + ".default"),
                                         ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                                         ("client_assertion", assertion)])
            call = ServiceCall("POST", url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        case let .managedIdentity(url, header):
            call = ServiceCall("GET", url, headers: header.map { [$0.name: $0.value] } ?? [:])
        }
        let answer: DataResponse
        do {
            answer = try await network.send(call)
        } catch {
            throw .tokenFailed(service: source.name, reason: "\(error)")
        }
        guard answer.metadata.statusCode == 200 else {
            throw .tokenFailed(service: source.name, reason: "HTTP \(answer.metadata.statusCode): \(String(decoding: answer.data.prefix(200), as: UTF8.self))")
        }
        guard let token = OAuthToken(json: answer.data) else { throw .tokenFailed(service: source.name, reason: "the answer has no access_token") }
        return token
    }
}
