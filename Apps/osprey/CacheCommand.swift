import ArgumentParser
import Foundation
import Osprey
import OspreyDiskCache

/// `osprey cache`: look after the disk cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect and maintain the disk cache.",
        discussion: """
            Example:
              osprey cache stats --json --cache-dir /var/cache/osprey
            """,
        subcommands: [Stats.self, List.self, Clean.self, Clear.self, Verify.self, Invalidate.self]
    )

    // Every command names itself: a derived name costs a reflection over the type at each start.
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Entries, bytes, limit, oldest and newest access.",
            discussion: "Example:\n  osprey cache stats --json")
        @OptionGroup var cache: CacheOptions
        @Flag(help: "One JSON object: entries, bytes, limitBytes, oldestAccess, newestAccess.") var json = false

        func run() throws {
            let stats = try cache.openDiskCache().statistics()
            if json {
                print(try CacheJSON.encode(stats))
            } else {
                print("entries: \(stats.entries)")
                print("bytes: \(stats.bytes) of \(stats.limitBytes)")
                print("oldest access: \(stats.oldestAccess.map(CacheJSON.date) ?? "-")")
                print("newest access: \(stats.newestAccess.map(CacheJSON.date) ?? "-")")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Every entry, most recently used first.",
            discussion: "Example:\n  osprey cache list --json")
        @OptionGroup var cache: CacheOptions
        @Flag(help: "One JSON object per line.") var json = false

        func run() throws {
            for entry in try cache.openDiskCache().entries() {
                print(json ? try CacheJSON.encode(entry) : "\(entry.size)\t\(CacheJSON.date(entry.accessed))\t\(entry.format ?? "-")\t\(entry.key)")
            }
        }
    }

    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clean",
            abstract: "Apply expiry and the limits now.",
            discussion: "Example:\n  osprey cache clean --disk-limit 100MB --json")
        @OptionGroup var cache: CacheOptions
        @Flag(help: "One JSON object: entries, bytes, limitBytes, oldestAccess, newestAccess.") var json = false

        func run() throws {
            let disk = try cache.openDiskCache()
            try disk.sweep()
            let stats = try disk.statistics()
            print(json ? try CacheJSON.encode(stats) : "cache: \(stats.entries) entries, \(stats.bytes) bytes")
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove every entry.",
            discussion: "Example:\n  osprey cache clear")
        @OptionGroup var cache: CacheOptions

        func run() async throws {
            try await cache.openDiskCache().removeAll()
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check that the index and the files agree; exit status 0 only then.",
            discussion: "Example:\n  osprey cache verify && echo consistent")
        @OptionGroup var cache: CacheOptions
        @Flag(help: "One JSON object: entries, problems.") var json = false

        func run() throws {
            let report: DiskCache.Verification
            do {
                report = try cache.openDiskCache(repairing: false).verify()
            } catch {
                print("inconsistent: \(error)")
                throw ExitCode(1)
            }
            if json {
                print(try CacheJSON.encode(report))
            } else {
                report.problems.forEach { print("problem: \($0)") }
                print(report.isConsistent ? "consistent: \(report.entries) entries" : "inconsistent: \(report.problems.count) problems")
            }
            if !report.isConsistent { throw ExitCode(1) }
        }
    }
}

/// JSON output for the cache commands: sorted keys, ISO 8601 dates.
extension CacheCommand {
    struct Invalidate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invalidate",
            abstract: "Remove every cached form of a URL: the original and every variant.",
            discussion: "Example:\n  osprey cache invalidate https://example.com/a.jpg")
        @Argument(help: "The URL whose cached forms to remove.") var url: String
        @OptionGroup var cache: CacheOptions
        @Flag(help: "One JSON object: url, removed.") var json = false

        func run() async throws {
            guard let target = URL(string: url), target.scheme != nil else { throw ValidationError("not a URL: \(url)") }
            let disk = try cache.openDiskCache()
            let before = try disk.statistics().entries
            try await ImagePipeline(configuration: .init(dataLoader: CurlDataLoader(), decoder: ImageCodec(), dataCache: disk))
                .invalidate(.url(target))
            let removed = before - (try disk.statistics().entries)
            print(json ? try CacheJSON.encode(["url": url, "removed": "\(removed)"]) : "removed \(removed) entries for \(url)")
        }
    }
}
