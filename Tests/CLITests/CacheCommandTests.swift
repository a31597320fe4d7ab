import Foundation
import OspreyDiskCache
import OspreyDomain
import OspreyTesting
import Testing

/// `osprey cache …` against a real cache folder.
@Suite("osprey cache commands")
struct CacheCommandTests {
    static var osprey: String { CLITests.executable.path }

    static func filledCache() async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-cli-cache-\(UUID().uuidString)")
        let cache = try DiskCache(configuration: .init(directory: folder))
        for i in 0..<3 { try await cache.store(CachedData(data: Data(count: 1_000 * (i + 1)), metadata: CachedDataMetadata(format: .png)), for: CacheKey(source: "https://x/\(i).png")) }
        cache.close()
        return folder
    }

    @Test func statsReportsTheIssuesJSONKeys() async throws {
        let folder = try await Self.filledCache()
        let outcome = try ChildProcess.run(Self.osprey, ["cache", "stats", "--json", "--cache-dir", folder.path, "--disk-limit", "64MB"])
        #expect(outcome.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(json["entries"] as? Int == 3 && json["bytes"] as? Int == 6_000 && json["limitBytes"] as? Int == 64_000_000)
        #expect(json["oldestAccess"] is String && json["newestAccess"] is String)
    }

    @Test func listShowsEveryEntryAndClearEmptiesTheCache() async throws {
        let folder = try await Self.filledCache()
        let list = try ChildProcess.run(Self.osprey, ["cache", "list", "--json", "--cache-dir", folder.path])
        #expect(list.output.split(separator: "\n").count == 3)
        #expect(list.output.contains("\"key\":\"https:\\/\\/x\\/2.png\"") || list.output.contains("\"key\":\"https://x/2.png\""))
        #expect(try ChildProcess.run(Self.osprey, ["cache", "clear", "--cache-dir", folder.path]).status == 0)
        #expect(try ChildProcess.run(Self.osprey, ["cache", "stats", "--json", "--cache-dir", folder.path]).output.contains("\"entries\":0"))
    }

    @Test func cleanAppliesALowerLimitAndVerifyFindsDamage() async throws {
        let folder = try await Self.filledCache()
        let clean = try ChildProcess.run(Self.osprey, ["cache", "clean", "--cache-dir", folder.path, "--disk-limit", "5KB"])
        #expect(clean.status == 0 && clean.output.contains("1 entries, 3000 bytes"), "\(clean.output)")
        #expect(try ChildProcess.run(Self.osprey, ["cache", "verify", "--cache-dir", folder.path]).status == 0)
        // 5 KB trims to 70%: the two least recently used entries went.
        // Damage a file behind the cache's back: verify must say so and fail.
        let data = folder.appendingPathComponent("data")
        let file = try #require(try FileManager.default.subpathsOfDirectory(atPath: data.path).first { $0.contains("-") })
        try Data("short".utf8).write(to: data.appendingPathComponent(file))
        let verify = try ChildProcess.run(Self.osprey, ["cache", "verify", "--cache-dir", folder.path])
        #expect(verify.status == 1 && verify.output.contains("index says 3000"), "\(verify.output)")
    }

    @Test func theCacheSettingsComeFromTheEnvironmentWhenNotGiven() async throws {
        let folder = try await Self.filledCache()
        let environment = ["OSPREY_CACHE_DIR": folder.path, "OSPREY_DISK_LIMIT": "64"]
        let stats = try ChildProcess.run(Self.osprey, ["cache", "stats", "--json"], environment: environment).output
        #expect(stats.contains("\"entries\":3") && stats.contains("\"limitBytes\":64000000"), "a bare number is megabytes: \(stats)")
        let given = try ChildProcess.run(Self.osprey, ["cache", "stats", "--json", "--disk-limit", "2MB"], environment: environment)
        #expect(given.output.contains("\"limitBytes\":2000000"), "the option wins over its variable")
        let bad = try ChildProcess.run(Self.osprey, ["cache", "stats", "--json"], environment: ["OSPREY_CACHE_DIR": folder.path, "OSPREY_DISK_LIMIT": "lots"])
        #expect(bad.status == 64 && bad.output.contains("OSPREY_DISK_LIMIT=lots"), "\(bad.output)")
    }

    @Test func badSizesAreUsageErrors() throws {
        #expect(try ChildProcess.run(Self.osprey, ["cache", "stats", "--disk-limit", "lots"]).status == 64)
    }
}
