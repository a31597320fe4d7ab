import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// `abs://` sources against Azure's Blob service as published, Shared Key checked by Azure's
/// own SDK (`AzureEndpointFakes`), and each way Azure's SDKs find an identity.
@Suite("ABSDataLoader", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct ABSDataLoaderTests {
    static let photo = Data("the blob's bytes".utf8)
    typealias Fakes = AzureEndpointFakes

    static func load(_ source: String, _ fakes: Fakes, key: String? = nil, environment: [String: String] = [:],
                     validators: HTTPValidators? = nil) async throws -> Data {
        let credentials = try ABSCredentials(account: Fakes.account, key: key, environment: environment)
        let store = try ABSDataLoader.Store(endpoint: URL(string: fakes.endpoint)!, account: Fakes.account, credentials: credentials)
        return try await ABSDataLoader(store: store, network: CurlDataLoader())
            .loadData(for: DataRequest(url: URL(string: source)!, validators: validators)).data
    }

    @Test func theAccountKeySignsEachRequestAsAzuresSDKDoes() async throws {
        let fakes = try Fakes(object: Self.photo)
        defer { fakes.stop() }
        #expect(try await Self.load("abs://photos/a.jpg", fakes, key: Fakes.accountKey) == Self.photo)
        #expect(try await Self.load("abs://photos/2026/a%20b+c.jpg?2026-11-28T12:00:00.0000000Z", fakes, key: Fakes.accountKey) == Self.photo,
                "an encoded name and a version")
        #expect(try await Self.load("abs://photos/a.jpg", fakes, key: Fakes.accountKey,
                                    validators: HTTPValidators(etag: "\"0x8D\"", lastModified: "Sat, 28 Nov 2026 12:00:00 GMT")!) == Self.photo,
                "a revalidation's conditions are signed too")
        await #expect(throws: DataLoadingError.self) { try await Self.load("abs://photos/a.jpg", fakes, key: Data(repeating: 7, count: 64).base64EncodedString()) }
        #expect(throws: ABSCredentialError.invalidKey) { try ABSCredentials(account: Fakes.account, key: "not base64!", environment: [:]) }
        #expect(try fakes.hits()["shared key"] == 3)
    }

    @Test func aSASTokenOrAnEntraIdentityAuthorisesWithoutAKey() async throws {
        let fakes = try Fakes(object: Self.photo)
        defer { fakes.stop() }
        let identity = ["AZURE_TENANT_ID": Fakes.tenant, "AZURE_CLIENT_ID": Fakes.clientID, "AZURE_AUTHORITY_HOST": fakes.url]
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-federated-\(UUID().uuidString)")
        try Fakes.federatedToken.write(to: tokenFile, atomically: true, encoding: .utf8)
        let ways: [(String, [String: String])] = [
            ("sas", ["AZURE_STORAGE_SAS_TOKEN": "?" + Fakes.sas]),
            ("secret", identity.merging(["AZURE_CLIENT_SECRET": Fakes.clientSecret]) { $1 }),
            ("workload", identity.merging(["AZURE_FEDERATED_TOKEN_FILE": tokenFile.path]) { $1 }),
            ("app service", ["IDENTITY_ENDPOINT": fakes.url + "/msi/token", "IDENTITY_HEADER": Fakes.identityHeader]),
            ("imds", ["AZURE_IMDS_ENDPOINT": fakes.url]),
        ]
        for (kind, environment) in ways {
            #expect(try await Self.load("abs://photos/a.jpg", fakes, environment: environment) == Self.photo, "\(kind)")
            #expect(try fakes.hits()[kind] == 1, "\(kind)")
        }
        #expect(try fakes.hits()["bearer"] == 4)
        let wrong = identity.merging(["AZURE_CLIENT_SECRET": "not-the-secret"]) { $1 }
        await #expect(throws: ABSCredentialError.self) { try await Self.load("abs://photos/a.jpg", fakes, environment: wrong) }
        #expect(throws: ABSCredentialError.self) { try ABSCredentials(account: Fakes.account, environment: ["AZURE_CLIENT_SECRET": "s"]) }
    }

    @Test func aServicePrincipalsCertificateSignsItsAssertionInPEMOrPKCS12() async throws {
        let fakes = try Fakes(object: Self.photo)
        defer { fakes.stop() }
        let identity = ["AZURE_TENANT_ID": Fakes.tenant, "AZURE_CLIENT_ID": Fakes.clientID, "AZURE_AUTHORITY_HOST": fakes.url]
        let pem = identity.merging(["AZURE_CLIENT_CERTIFICATE_PATH": fakes.certificatePath]) { $1 }
        #expect(try await Self.load("abs://photos/a.jpg", fakes, environment: pem) == Self.photo)
        let pkcs12 = identity.merging(["AZURE_CLIENT_CERTIFICATE_PATH": fakes.certificatePKCS12Path,
                                       "AZURE_CLIENT_CERTIFICATE_PASSWORD": Fakes.certificatePassword]) { $1 }
        #expect(try await Self.load("abs://photos/a.jpg", fakes, environment: pkcs12) == Self.photo)
        #expect(try fakes.hits()["certificate"] == 2)
        let chained = pem.merging(["AZURE_CLIENT_CERTIFICATE_CHAIN": "true"]) { $1 }
        #expect(try await Self.load("abs://photos/a.jpg", fakes, environment: chained) == Self.photo)
        #expect(try fakes.hits()["certificate chain"] == 1, "the certificate sent in x5c")
        // Another key's assertion is refused; so is a PKCS#12 file without its password.
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-other-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: other) }
        let made = try ChildProcess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", other, "-out", other + ".crt",
                                                             "-subj", "/CN=someone-else", "-days", "1"])
        #expect(made.status == 0)
        try (try Data(contentsOf: URL(fileURLWithPath: other)) + Data(contentsOf: URL(fileURLWithPath: other + ".crt"))).write(to: URL(fileURLWithPath: other))
        try? FileManager.default.removeItem(atPath: other + ".crt")
        for environment in [identity.merging(["AZURE_CLIENT_CERTIFICATE_PATH": other]) { $1 },
                            identity.merging(["AZURE_CLIENT_CERTIFICATE_PATH": fakes.certificatePKCS12Path]) { $1 }] {
            await #expect(throws: ABSCredentialError.self) { try await Self.load("abs://photos/a.jpg", fakes, environment: environment) }
        }
        #expect(try fakes.hits()["certificate"] == 3)
    }
}
