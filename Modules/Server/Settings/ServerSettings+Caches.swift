import Foundation
import Osprey

extension ServerSettings {
    /// The caches: the disk cache's folder and limit, the memory cache's, the fleet's Redis tier.
    static let caches: [ServerSetting] = [
        ServerSetting("cache-dir", .value("FOLDER"), "The disk cache's folder.", default: { _ in "$XDG_CACHE_HOME/osprey-server, else ~/.cache/osprey-server" }) {
            (input) throws(ServerSettingError) in input.service.osprey.cacheDirectory = URL(fileURLWithPath: input.text, isDirectory: true)
        },
        ServerSetting("disk-limit", .value("SIZE"), "The disk cache's size limit, such as 256MB; a bare number is megabytes.",
                      default: { "\($0.service.osprey.diskLimit / 1_000_000)MB" }) {
            (input) throws(ServerSettingError) in input.service.osprey.diskLimit = try input.bytes()
        },
        ServerSetting("memory-limit", .value("SIZE"),
                      "The memory cache's limit for reduced decodes, such as 64MB; a bare number is megabytes, 0 turns it off.",
                      default: { "\($0.service.osprey.memoryLimit / 1_000_000)MB" }) {
            (input) throws(ServerSettingError) in input.service.osprey.memoryLimit = try input.bytes()
        },
        ServerSetting("shared-cache", .value("URL"),
                      "A cache shared by a fleet, behind the disk cache: redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss:// for TLS.") {
            (input) throws(ServerSettingError) in input.server.sharedCache = input.text
        },
        ServerSetting("shared-cache-ca", .value("FILE"), "A PEM file of the authorities that sign the shared cache's TLS certificate.",
                      default: { _ in "the system's" }) {
            (input) throws(ServerSettingError) in input.server.sharedCacheAuthorities = input.text
        },
    ]
}
