import ArgumentParser
import Foundation
import OspreyDiskCache
import OspreyMemoryCache
import Osprey
import OspreyPrograms

/// The options every command that touches the caches takes: Osprey's programs' shared ones.
struct CacheOptions: ParsableArguments {
    @OptionGroup var flags: CacheFlags

    static let defaults = CacheFlags.Defaults(folderName: "osprey", diskLimit: 256_000_000)

    var directory: URL { flags.directory(Self.defaults) }

    /// Opens the disk cache; `repairing: false` opens it as found, for `verify`.
    func openDiskCache(repairing: Bool = true) throws -> DiskCache {
        let limit = try usage { try flags.configuration(Self.defaults) }.diskLimit
        do {
            return try DiskCache(configuration: .init(directory: directory, sizeLimit: limit, repairsAtOpen: repairing))
        } catch {
            ExitStatus.printError("cannot open the cache in \(directory.path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }

    /// A pipeline over this disk cache folder and these limits, with Osprey's defaults otherwise.
    func pipeline(diskStorage: DiskStoragePolicy = .originalData, maxConcurrentTransfers: Int = 6) throws -> ImagePipeline {
        var configuration = try usage { try flags.configuration(Self.defaults) }
        configuration.diskStorage = diskStorage
        configuration.network.maxConcurrentTransfers = maxConcurrentTransfers
        do {
            return try configuration.makePipeline()
        } catch {
            ExitStatus.printError("cannot open the cache in \(directory.path): \(error)")
            throw ExitStatus.cannotCreate
        }
    }

    /// `body`'s value; a setting it could not read is a usage error.
    private func usage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            ExitStatus.printError("\(error)")
            throw ExitStatus.usage
        }
    }
}
