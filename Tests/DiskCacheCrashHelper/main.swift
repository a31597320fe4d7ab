// Writes entries into a disk cache as fast as it can, for the crash test: the test kills this
// process with SIGKILL part-way and then checks what the cache holds.
//
// usage: DiskCacheCrashHelper DIR COUNT
// Entry i has key "entry-i" and the bytes CrashPayload.bytes(i).
import Foundation
import OspreyDiskCache
import OspreyDomain
import OspreyTesting

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: DiskCacheCrashHelper DIR COUNT\n".utf8))
    exit(64)
}
let cache = try DiskCache(configuration: .init(directory: URL(fileURLWithPath: arguments[1]), sizeLimit: 4_000_000))
for i in 0..<count {
    try await cache.store(CachedData(data: CrashPayload.bytes(i), metadata: CachedDataMetadata(etag: "\"\(i)\"")), for: CacheKey(source: "entry-\(i)"))
    FileHandle.standardOutput.write(Data("\(i)\n".utf8))  // the test kills by progress, not by time
}
cache.close()
FileHandle.standardOutput.write(Data("done\n".utf8))
