import ArgumentParser
import Foundation
import OspreyDiskCache
import OspreyMemoryCache
import Osprey
import OspreyRedisCache

/// The options every command that touches the caches takes.
struct CacheOptions: ParsableArguments {
    @Option(help: "The disk cache folder (default: $OSPREY_CACHE_DIR, else $XDG_CACHE_HOME/osprey, else ~/.cache/osprey).")
    var cacheDir: String?

    @Option(help: "The disk cache's size limit, such as 256MB (default 256MB).")
    var diskLimit: ByteSizeArgument?

    @Option(help: "The memory cache's cost limit, such as 64MB (default: the lesser of 512 MB and 20% of memory).")
    var memoryLimit: ByteSizeArgument?

    @Option(help: "A cache shared by a fleet, behind the disk cache: redis://HOST[:PORT][/DB] (default: none).")
    var sharedCache: String?

    var directory: URL {
        if let cacheDir { return URL(fileURLWithPath: cacheDir, isDirectory: true) }
        if let env = ProcessInfo.processInfo.environment["OSPREY_CACHE_DIR"], !env.isEmpty { return URL(fileURLWithPath: env, isDirectory: true) }
        return DiskCache.Configuration.defaultDirectory
    }

    /// Opens the disk cache; `repairing: false` opens it as found, for `verify`.
    func openDiskCache(repairing: Bool = true) throws -> DiskCache {
        do {
            return try DiskCache(configuration: .init(directory: directory, sizeLimit: diskLimit?.bytes ?? 256_000_000, repairsAtOpen: repairing))
        } catch {
            ExitStatus.printError("cannot open the cache in \(directory.path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }

    /// A pipeline over this disk cache folder and these limits, with Osprey's defaults otherwise.
    func pipeline(diskStorage: DiskStoragePolicy = .originalData, maxConcurrentTransfers: Int = 6) throws -> ImagePipeline {
        var configuration = OspreyConfiguration(cacheDirectory: directory, diskStorage: diskStorage)
        if let diskLimit { configuration.diskLimit = diskLimit.bytes }
        if let memoryLimit { configuration.memoryLimit = memoryLimit.bytes }
        configuration.network.maxConcurrentTransfers = maxConcurrentTransfers
        if let sharedCache {
            do {
                configuration.sharedCache = RedisDataCache(configuration: try RedisDataCache.Configuration(url: sharedCache), logger: configuration.logger)
            } catch {
                ExitStatus.printError("\(error)")
                throw ExitStatus.usage
            }
        }
        do {
            return try configuration.makePipeline()
        } catch {
            ExitStatus.printError("cannot open the cache in \(directory.path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }

    func memoryCache() -> MemoryCache {
        MemoryCache(configuration: .init(costLimit: memoryLimit?.bytes ?? MemoryCache.Configuration.defaultCostLimit))
    }
}
