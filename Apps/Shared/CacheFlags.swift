import ArgumentParser
import Foundation
import Osprey
import OspreyRedisCache

/// The cache options every Osprey program takes, with the same names and meaning in each:
/// the disk cache's folder and limit, the memory cache's limit, and the Redis tier a fleet
/// shares. Each also reads its `OSPREY_` variable (``ProgramEnvironment``).
public struct CacheFlags: ParsableArguments {
    @Option(help: "The disk cache folder (or $OSPREY_CACHE_DIR; default: $XDG_CACHE_HOME/<program>, else ~/.cache/<program>).")
    public var cacheDir: String?

    @Option(help: "The disk cache's size limit, such as 256MB; a bare number is megabytes (or $OSPREY_DISK_LIMIT).")
    public var diskLimit: ByteSizeArgument?

    @Option(help: "The memory cache's limit, such as 64MB; a bare number is megabytes, 0 turns it off (or $OSPREY_MEMORY_LIMIT).")
    public var memoryLimit: ByteSizeArgument?

    @Option(help: "A cache shared by a fleet, behind the disk cache: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss:// for TLS (or $OSPREY_SHARED_CACHE).")
    public var sharedCache: String?

    @Option(help: "A PEM file of the authorities that sign the shared cache's TLS certificate (default: the system's; or $OSPREY_SHARED_CACHE_CA).")
    public var sharedCacheCa: String?

    public init() {}

    /// What a program uses when neither an option nor its variable says.
    public struct Defaults: Sendable {
        /// The disk cache's folder, under the user's cache folder.
        public var folderName: String
        public var diskLimit: Int
        /// `nil`: the library's (the lesser of 512 MB and 20% of memory).
        public var memoryLimit: Int?

        public init(folderName: String, diskLimit: Int, memoryLimit: Int? = nil) {
            self.folderName = folderName
            self.diskLimit = diskLimit
            self.memoryLimit = memoryLimit
        }
    }

    /// The disk cache's folder: the option, `OSPREY_CACHE_DIR`, else the program's own under
    /// `$XDG_CACHE_HOME` (or `~/.cache`).
    public func directory(_ defaults: Defaults) -> URL {
        if let path = cacheDir ?? ProgramEnvironment.value("CACHE_DIR") { return URL(fileURLWithPath: path, isDirectory: true) }
        return DiskCache.Configuration.defaultDirectory.deletingLastPathComponent()
            .appendingPathComponent(defaults.folderName, isDirectory: true)
    }

    /// Osprey's configuration with these caches: the folder, both limits and, when one is
    /// named, the shared Redis tier.
    public func configuration(_ defaults: Defaults) throws -> OspreyConfiguration {
        var configuration = OspreyConfiguration(cacheDirectory: directory(defaults))
        configuration.diskLimit = try ProgramEnvironment.value(diskLimit, "DISK_LIMIT")?.bytes ?? defaults.diskLimit
        if let memory = try ProgramEnvironment.value(memoryLimit, "MEMORY_LIMIT")?.bytes ?? defaults.memoryLimit {
            configuration.memoryLimit = memory
        }
        if let shared = sharedCache ?? ProgramEnvironment.value("SHARED_CACHE") {
            do {
                var redis = try RedisDataCache.Configuration(url: shared)
                redis.certificateAuthorities = sharedCacheCa ?? ProgramEnvironment.value("SHARED_CACHE_CA")
                configuration.sharedCache = RedisDataCache(configuration: redis, logger: configuration.logger)
            } catch {
                throw ValidationError("--shared-cache: \(error)")
            }
        }
        return configuration
    }
}
