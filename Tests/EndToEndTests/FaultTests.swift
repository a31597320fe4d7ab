import Foundation
import Osprey
import OspreyTesting
import Testing

/// Faults the pipeline must survive with a typed error or a rebuilt cache, losing nothing
/// that was cached and intact. (The disk cache's own faults — a full tmpfs, a garbage index,
/// a writer killed mid-write — are in `DiskCacheRecoveryTests`.)
@Suite("Faults end to end")
struct FaultTests {
    @Test func theCacheFolderDeletedWhileRunningCostsOnlyItsEntries() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        e.server.serve("second.jpg", EndToEnd.photo)
        let (pipeline, _) = try e.pipeline()
        #expect(try await pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 64, height: 64))).tier == .network)
        try FileManager.default.removeItem(at: e.cacheDirectory)
        // The running pipeline goes on: what memory holds is still served, the rest reloads.
        #expect(try await pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 64, height: 64))).tier == .memory)
        let other = try await pipeline.image(for: ImageRequest(url: e.server.url("/files/second.jpg"), targetSize: PixelSize(width: 32, height: 32)))
        #expect(other.tier == .network && other.image.width == 32)
        let resized = try await pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 48, height: 48)))
        #expect(resized.image.width == 48)
        // A new process finds a working cache in the same place.
        let (next, disk) = try e.pipeline()
        _ = try await next.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 80, height: 80)))
        #expect(try await e.pipeline().pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 80, height: 80))).tier == .disk)
        #expect(try disk.statistics().entries >= 1)
    }

    @Test func aServerDyingMidTransferIsATypedErrorAndKeepsWhatWasCached() async throws {
        let e = try EndToEnd()
        defer { e.finish() }
        let (pipeline, disk) = try e.pipeline()
        _ = try await pipeline.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 64, height: 64)))
        let before = try disk.statistics()
        let dying = ImageRequest(url: e.server.url("/disconnect/files/photo.jpg"))
        await #expect {
            try await pipeline.image(for: dying)
        } throws: { error in
            guard case .dataLoadingFailed(let reason)? = error as? ImagePipeline.Error else { return false }
            switch reason {
            case .truncated, .connectionFailed: return true
            default: return false
            }
        }
        #expect(try disk.statistics().entries == before.entries, "nothing half-written was stored")
        let (fresh, _) = try e.pipeline()
        #expect(try await fresh.image(for: ImageRequest(url: e.url, targetSize: PixelSize(width: 64, height: 64))).tier == .disk,
                "the intact entry is still there")
    }
}
