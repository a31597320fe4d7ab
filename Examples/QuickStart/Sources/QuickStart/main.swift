// usage: QuickStart IMAGE_FILE CACHE_FOLDER
// Loads IMAGE_FILE as a 200×200 fill thumbnail with rounded corners and a blur, checks what
// it got, then removes it from the caches. Exits non-zero when anything is not as promised.
import Foundation
import Osprey

guard CommandLine.arguments.count == 3 else {
    print("usage: QuickStart IMAGE_FILE CACHE_FOLDER")
    exit(64)
}
let pipeline = ImagePipeline(configuration: .withDiskCache(at: URL(fileURLWithPath: CommandLine.arguments[2])))
let request = ImageRequest(
    source: .file(path: CommandLine.arguments[1]),
    targetSize: PixelSize(width: 200, height: 200),
    contentMode: .fill,
    processors: [.roundedCorners(radius: 12), .blur(radius: 2)]
)

func check(_ condition: Bool, _ message: String) {
    guard condition else {
        print("QuickStart: FAILED: \(message)")
        exit(1)
    }
}

let response = try await pipeline.image(for: request)
print("\(response.image.size) from \(response.tier) in \(response.milliseconds) ms")
check(response.image.size == PixelSize(width: 200, height: 200), "fill gives exactly 200x200, got \(response.image.size)")
check(pipeline.cache.cachedImage(for: request) != nil, "the thumbnail is in memory")
let again = try await pipeline.image(for: request)
check(again.tier == .memory, "the second load is a memory hit, was \(again.tier)")
try await pipeline.cache.removeCachedImage(for: request)
check(pipeline.cache.cachedImage(for: request) == nil, "removed from memory")
let thumbnail = try ImageCodec().encode(response.image, options: EncodingOptions(format: .png))
check(thumbnail.starts(with: [0x89, 0x50, 0x4E, 0x47]), "encodes as PNG")
print("QuickStart: ok")
