import Foundation
import OspreyDiskCache
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

@Suite("DiskCache recovery")
struct DiskCacheRecoveryTests {
    static var buildFolder: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    @Test func aWriterKilledMidwayLeavesOnlyIntactEntries() async throws {
        let folder = temporaryCacheFolder()
        let helper = Self.buildFolder.appendingPathComponent("DiskCacheCrashHelper")
        let process = Process()
        process.executableURL = helper
        process.arguments = [folder.path, "1000"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Let it write about 300 of its 1000 entries, then kill it without warning.
        var written = 0
        var pending = Data()
        while written < 300 {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            pending += chunk
            written += chunk.filter { $0 == UInt8(ascii: "\n") }.count
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed before it finished all 1000 writes")

        // As the crash left it, before any repair: the index and the files agree.
        let verification = try DiskCache(configuration: .init(directory: folder, sizeLimit: 4_000_000, repairsAtOpen: false)).verify()
        #expect(verification.isConsistent, "\(verification.problems)")

        let cache = try DiskCache(configuration: .init(directory: folder, sizeLimit: 4_000_000))
        let entries = try cache.entries()
        #expect(!entries.isEmpty)
        print("crash test: \(entries.count) of 1000 entries indexed when the writer was killed")
        for entry in entries {
            let index = Int(entry.key.dropFirst("entry-".count))!
            let stored = try await cache.cachedData(for: CacheKey(source: entry.key))
            #expect(stored?.data == CrashPayload.bytes(index), "\(entry.key) reads back byte-identical")
        }
        #expect(try cache.verify().isConsistent)
        cache.close()
    }

    @Test func aGarbageIndexIsMovedAsideAndRebuilt() async throws {
        let folder = temporaryCacheFolder()
        do {
            let cache = try DiskCache(configuration: .init(directory: folder))
            try await cache.store(CachedData(data: Data("kept?".utf8)), for: CacheKey(source: "a"))
            cache.close()
        }
        let index = folder.appendingPathComponent("index.sqlite")
        try Data(repeating: 0x5A, count: 8_192).write(to: index)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: index.path + suffix) }
        let cache = try DiskCache(configuration: .init(directory: folder))
        #expect(try await cache.usage() == .zero, "nothing could be verified from garbage")
        try await cache.store(CachedData(data: Data("new".utf8)), for: CacheKey(source: "b"))
        #expect(try await cache.cachedData(for: CacheKey(source: "b"))?.data == Data("new".utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasPrefix("index.sqlite.damaged-") }, "the damaged index is kept aside: \(names)")
    }

    @Test func rowsWithoutFilesAndFilesWithoutRowsAreCleanedAtOpen() async throws {
        let folder = temporaryCacheFolder()
        do {
            let cache = try DiskCache(configuration: .init(directory: folder))
            for key in ["a", "b"] { try await cache.store(CachedData(data: Data(key.utf8)), for: CacheKey(source: key)) }
            cache.close()
        }
        let data = folder.appendingPathComponent("data")
        let files = try FileManager.default.subpathsOfDirectory(atPath: data.path).filter { $0.contains("-") }
        try FileManager.default.removeItem(at: data.appendingPathComponent(files[0]))
        let orphan = data.appendingPathComponent("00/orphan")
        try FileManager.default.createDirectory(at: orphan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: orphan)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: orphan.path)
        let cache = try DiskCache(configuration: .init(directory: folder))
        #expect(try await cache.usage().count == 1)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(try cache.verify().isConsistent)
    }

    /// Whether this machine lets the tests mount a tmpfs (root, and a sandbox that allows it).
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = temporaryCacheFolder()
        guard (try? ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path]))?.status == 0 else { return false }
        _ = try? ChildProcess.run("/bin/umount", [probe.path])
        return true
    }()

    @Test(.enabled(if: canMountTmpfs, "mounting a tmpfs needs root and a sandbox that allows it"))
    func aFullDiskGivesTypedErrorsAndAConsistentCache() async throws {
        let mount = temporaryCacheFolder()
        let status = try ChildProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k", "tmpfs", mount.path])
        try #require(status.status == 0, "mount a 512 KB tmpfs: \(status.output)")
        defer { _ = try? ChildProcess.run("/bin/umount", [mount.path]) }
        let cache = try DiskCache(configuration: .init(directory: mount, sizeLimit: 100_000_000))
        var stored: [Int] = []
        var failures = 0
        var reasons: Set<String> = []
        for i in 0..<100 {
            do {
                try await cache.store(CachedData(data: DataCachingContract.bytes(20_000, seed: UInt64(i))), for: CacheKey(source: "\(i)"))
                stored.append(i)
            } catch let error as DataCacheError {
                if case .storageFailed(let reason) = error { failures += 1; reasons.insert(reason) } else { Issue.record("unexpected \(error)") }
            }
        }
        #expect(failures > 0, "the disk filled up")
        #expect(reasons.contains("No space left on device"), "the system's reason: \(reasons)")
        #expect(stored.count > 5)
        for i in stored {
            let entry = try await cache.cachedData(for: CacheKey(source: "\(i)"))
            #expect(entry == nil || entry?.data == DataCachingContract.bytes(20_000, seed: UInt64(i)))
        }
        let report = try cache.verify()
        #expect(report.isConsistent, "\(report.problems)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.appendingPathComponent("tmp").path).isEmpty, "no temporary file left")
    }

    @Test func twoProcessesShareOneFolder() async throws {
        let folder = temporaryCacheFolder()
        let helper = Self.buildFolder.appendingPathComponent("DiskCacheCrashHelper").path
        // Two writers at once, plus this process reading and writing.
        let first = Process(), second = Process()
        for process in [first, second] {
            process.executableURL = URL(fileURLWithPath: helper)
            process.arguments = [folder.path, "200"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
        let cache = try DiskCache(configuration: .init(directory: folder, sizeLimit: 4_000_000))
        for i in 0..<50 { try await cache.store(CachedData(data: CrashPayload.bytes(1_000 + i)), for: CacheKey(source: "mine-\(i)")) }
        first.waitUntilExit()
        second.waitUntilExit()
        #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
        for entry in try cache.entries() where entry.key.hasPrefix("entry-") {
            let stored = try await cache.cachedData(for: CacheKey(source: entry.key))
            #expect(stored?.data == CrashPayload.bytes(Int(entry.key.dropFirst(6))!))
        }
        #expect(try await cache.usage().cost <= 4_000_000)
        let report = try cache.verify()
        #expect(report.isConsistent, "\(report.problems)")
    }
}
