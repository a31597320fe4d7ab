import Foundation
import OspreyDomain
import OspreyRedisCache
import OspreyTesting
import Testing

/// The shared tier against a `redis-server` that speaks only TLS and asks for a password,
/// with a certificate the test makes (openssl) for 127.0.0.1.
@Suite("Redis over TLS with a password", .serialized)
struct RedisSecurityTests {
    static func certificate() throws -> (folder: URL, certificate: String, key: String) {
        let folder = try TemporaryFolder.make("redis-tls")
        let certificate = folder.appendingPathComponent("cert.pem").path, key = folder.appendingPathComponent("key.pem").path
        let made = try ChildProcess.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                                         "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                         "-addext", "subjectAltName=IP:127.0.0.1"])
        try #require(made.status == 0, "\(made.output)")
        return (folder, certificate, key)
    }

    static func cache(_ url: String, authorities: String?) throws -> RedisDataCache {
        var configuration = try RedisDataCache.Configuration(url: url)
        configuration.certificateAuthorities = authorities
        configuration.keyPrefix = "test-\(UUID().uuidString):"
        // Generous under a loaded machine, and a failure stays marked until the test looks.
        configuration.connectTimeout = .seconds(5)
        configuration.commandTimeout = .seconds(5)
        configuration.retryInterval = .seconds(600)
        return RedisDataCache(configuration: configuration)
    }

    static let entry = CachedData(data: Data("the shared bytes".utf8), metadata: CachedDataMetadata())

    @Test func aPasswordAndTLSReachTheServerAndNothingElseDoes() async throws {
        let (folder, certificate, key) = try Self.certificate()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try RedisServer(tlsCertificate: certificate, key: key, password: "s3cret p@ss")
        defer { withExtendedLifetime(server) {} }
        let url = "rediss://:s3cret%20p%40ss@127.0.0.1:\(server.port)/0"
        let cache = try Self.cache(url, authorities: certificate)
        let stored = CacheKey(source: "https://images.example/a.jpg")
        try await cache.store(Self.entry, for: stored)
        #expect(try await cache.cachedData(for: stored)?.data == Self.entry.data, "stored and read over TLS")
        #expect(!cache.isUnavailable)

        // A wrong password, no TLS, or a certificate nobody vouches for: Redis is unavailable,
        // and the cache reads as empty instead of failing its callers.
        for (name, other) in [("wrong password", try Self.cache("rediss://:wrong@127.0.0.1:\(server.port)/0", authorities: certificate)),
                              ("plain text", try Self.cache("redis://:s3cret%20p%40ss@127.0.0.1:\(server.port)/0", authorities: nil)),
                              ("untrusted certificate", try Self.cache(url, authorities: nil))] {
            let read = try? await other.cachedData(for: stored)
            #expect(read == nil, "\(name)")
            #expect(other.isUnavailable, "\(name)")
        }
    }

    @Test func urlsCarryTheUserPasswordAndTLS() throws {
        let secure = try RedisDataCache.Configuration(url: "rediss://fleet:pa%3Ass@cache.internal:6380/2")
        #expect(secure.usesTLS && secure.username == "fleet" && secure.password == "pa:ss" && secure.port == 6380 && secure.database == 2)
        let plain = try RedisDataCache.Configuration(url: "redis://:only-password@cache.internal")
        #expect(!plain.usesTLS && plain.username == nil && plain.password == "only-password")
        let error = RedisURLError.notARedisURL("memcached://:topsecret@cache.internal")
        #expect(!error.description.contains("topsecret"), "a password never reaches a message: \(error)")
    }
}
