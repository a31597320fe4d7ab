import Foundation
import OspreyDomain

/// What authorises requests to Google Cloud Storage, found as Google's client libraries find
/// it: a service account's JSON key (imgproxy's `IMGPROXY_GCS_KEY`, else the file
/// `GOOGLE_APPLICATION_CREDENTIALS` names), whose signed assertion (RS256) is exchanged at the
/// key's `token_uri`; else the metadata server on Compute Engine and GKE (`GCE_METADATA_HOST`
/// to move it); none for an emulator (`STORAGE_EMULATOR_HOST`). Tokens are fetched at the
/// first request, shared, and fetched again five minutes before they expire.
public final class GCSCredentials: Sendable {
    enum Source: Sendable, Hashable {
        case serviceAccount(GCSServiceAccountKey)
        case metadataServer(URL)
        case anonymous
    }

    let source: Source
    /// The OAuth scope a service account's token is asked for.
    let scope: String
    private let network: CurlDataLoader
    private let cache = RenewingCache<OAuthToken>(margin: 5 * 60) { $0.expiration }
    /// Reading Cloud Storage, the default scope.
    public static let storageReadScope = "https://www.googleapis.com/auth/devstorage.read_only"
    /// All of Google Cloud's APIs (Secret Manager's among them).
    public static let cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

    /// - Parameters:
    ///   - key: a service account's JSON key; `nil` looks in `environment` and then asks the
    ///     metadata server.
    ///   - scope: what a service account's token is asked for; Cloud Storage reads by default.
    ///   - network: the loader the token services are called through; by default one of its own.
    /// - Throws: ``GCSCredentialError`` for a key that is not a service account's, or a key
    ///   file that cannot be read.
    public init(key: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                scope: String = storageReadScope, network: CurlDataLoader? = nil) throws(GCSCredentialError) {
        self.scope = scope
        if let key, !key.isEmpty {
            source = .serviceAccount(try GCSServiceAccountKey(json: key))
        } else if let host = environment["STORAGE_EMULATOR_HOST"], !host.isEmpty {
            source = .anonymous
        } else if let path = environment["GOOGLE_APPLICATION_CREDENTIALS"], !path.isEmpty {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw .invalidKey("cannot read \(path)") }
            source = .serviceAccount(try GCSServiceAccountKey(json: text))
        } else {
            let host = environment["GCE_METADATA_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "metadata.google.internal"
            source = .metadataServer(URL(string: "http://\(host)/computeMetadata/v1/instance/service-accounts/default/token")!)
        }
        self.network = network ?? CurlDataLoader(configuration: CurlDataLoader.Configuration(connectTimeout: 2, transferTimeout: 10, maxRetries: 0))
    }

    /// Who gives the tokens, for logs.
    public var sourceName: String {
        switch source {
        case .serviceAccount(let key): "the service account \(key.clientEmail)"
        case .metadataServer(let url): "the metadata server at \(url.host ?? "")"
        case .anonymous: "no one (an emulator)"
        }
    }

    /// The `Authorization` header's value for a request now; `nil` for an emulator.
    /// - Throws: ``GCSCredentialError`` when no token can be had.
    public func authorization() async throws -> String? {
        guard source != .anonymous else { return nil }
        let source = source, scope = scope, network = network
        return "Bearer " + (try await cache.value { try await Self.fetch(source, scope: scope, network) }).value
    }

    private static func fetch(_ source: Source, scope: String, _ network: CurlDataLoader) async throws(GCSCredentialError) -> OAuthToken {
        let call: ServiceCall
        let service: String
        switch source {
        case .anonymous:
            throw .tokenFailed(service: "an emulator", reason: "it needs none")
        case .serviceAccount(let key):
            let now = Int(Date().timeIntervalSince1970)
            let assertion: String
            do {
                assertion = try JWTAssertion.rs256(claims: ["iss": key.clientEmail, "scope": scope, "aud": key.tokenURI.absoluteString,
                                                            "iat": now, "exp": now + 3600], pemKey: key.privateKey)
            } catch {
                throw .invalidKey("its private_key cannot sign: \(error.reason)")
            }
            let form = ServiceCall.form([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", assertion)])
            call = ServiceCall("POST", key.tokenURI, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
            service = key.tokenURI.absoluteString
        case .metadataServer(let url):
            call = ServiceCall("GET", url, headers: ["Metadata-Flavor": "Google"])
            service = "the metadata server"
        }
        let answer: DataResponse
        do {
            answer = try await network.send(call)
        } catch {
            throw .tokenFailed(service: service, reason: "\(error)")
        }
        guard answer.metadata.statusCode == 200 else {
            throw .tokenFailed(service: service, reason: "HTTP \(answer.metadata.statusCode): \(String(decoding: answer.data.prefix(200), as: UTF8.self))")
        }
        guard let token = OAuthToken(json: answer.data) else { throw .tokenFailed(service: service, reason: "the answer has no access_token") }
        return token
    }
}
