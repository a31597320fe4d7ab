import Foundation
import OspreyDomain
import OspreyTesting

/// A pipeline built from fakes, with handles on each part.
struct PipelineHarness {
    let loader: MockDataLoader
    let memory = InMemoryImageCache()
    let disk: InMemoryDataCache
    let clock = ManualClock()
    let pipeline: ImagePipeline

    static let size = PixelSize(width: 64, height: 48)
    static let url = URL(string: "https://images.example/photo.ospf")!

    init(holding: Bool = false, withDisk: Bool = true, diskStorage: DiskStoragePolicy = .originalData,
         urlNormalization: URLNormalization = URLNormalization()) {
        loader = MockDataLoader(holding: holding)
        disk = InMemoryDataCache(clock: clock)
        loader.serve(FakeImageCodec.encodedSolid(Self.size), at: Self.url)
        pipeline = ImagePipeline(configuration: .init(
            dataLoader: loader, decoder: FakeImageCodec(), imageCache: memory,
            dataCache: withDisk ? disk : nil, encoder: FakeImageCodec(), diskStorage: diskStorage,
            urlNormalization: urlNormalization, clock: clock
        ))
    }

    /// Another pipeline over the same loader and disk cache with an empty memory cache,
    /// as a new process would find them.
    func anotherProcess() -> (pipeline: ImagePipeline, memory: InMemoryImageCache) {
        let memory = InMemoryImageCache()
        var configuration = pipeline.configuration
        configuration.imageCache = memory
        return (ImagePipeline(configuration: configuration), memory)
    }

    /// A request for the standard photo.
    func request(_ target: PixelSize? = nil, processors: [any ImageProcessing] = [], options: ImageRequest.Options = []) -> ImageRequest {
        ImageRequest(url: Self.url, targetSize: target, processors: processors, options: options)
    }

    /// Waits until `count` callers wait on `request`'s shared load.
    func waitForCallers(_ count: Int, on request: ImageRequest) async throws {
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(60))
        while await pipeline.waitingCallers(for: request) < count {
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("\(count) callers") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Waits until the loader has been asked `count` times.
    func waitForLoads(_ count: Int) async throws {
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(60))
        while loader.loadCount < count {
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("\(count) loads") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    enum HarnessError: Error { case timedOut(String) }
}
