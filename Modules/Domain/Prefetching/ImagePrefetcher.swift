import Foundation
import Synchronization

/// Loads images ahead of need, at low priority and a few at a time, so they are cached
/// when they are shown.
///
/// What is already cached is skipped: an image in memory, or one whose bytes are on disk
/// (unless ``warmsMemory`` asks to decode those into memory too). Progress arrives as an
/// async sequence; ``cancel()`` stops everything at once.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(pipeline: pipeline)
/// for await progress in prefetcher.prefetch(requests) { print(progress) }
/// ```
public final class ImagePrefetcher: Sendable {
    /// How far a prefetch has got.
    public struct Progress: Hashable, Sendable, CustomStringConvertible {
        /// Requests loaded into the caches.
        public var completed = 0
        /// Requests that failed.
        public var failed = 0
        /// Requests already cached, not loaded again.
        public var skipped = 0
        /// All requests.
        public var total = 0

        /// Creates progress.
        public init(completed: Int = 0, failed: Int = 0, skipped: Int = 0, total: Int = 0) {
            self.completed = completed
            self.failed = failed
            self.skipped = skipped
            self.total = total
        }

        /// Requests finished one way or another.
        public var finished: Int { completed + failed + skipped }

        public var description: String { "\(finished)/\(total) (completed \(completed), failed \(failed), skipped \(skipped))" }
    }

    /// The pipeline that loads and caches.
    public let pipeline: ImagePipeline
    /// Loads at once (default 5, as Kingfisher).
    public let maxConcurrentLoads: Int
    /// Whether images found on disk are decoded into memory (default `false`: skipped).
    public let warmsMemory: Bool
    /// The priority prefetch loads run at (default `.low`).
    public let priority: ImageRequest.Priority
    private let running = Locked<[Int: Task<Void, Never>]>([:])
    private let nextID = Atomic<Int>(0)

    /// Creates a prefetcher.
    public init(pipeline: ImagePipeline, maxConcurrentLoads: Int = 5, warmsMemory: Bool = false, priority: ImageRequest.Priority = .low) {
        self.pipeline = pipeline
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
        self.warmsMemory = warmsMemory
        self.priority = priority
    }

    /// Starts loading `requests` and reports progress after each; the sequence ends when
    /// all are done or the prefetch is cancelled (by ``cancel()`` or by dropping the sequence).
    public func prefetch(_ requests: [ImageRequest]) -> AsyncStream<Progress> {
        let (stream, continuation) = AsyncStream.makeStream(of: Progress.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextID.add(1, ordering: .relaxed).newValue
        // Recorded under the lock it is removed under, so a prefetch that ends at once cannot
        // remove its entry before it is recorded and leave it behind.
        let task = running.withLock { running in
            let task = Task(priority: priority.taskPriority) { [self] in
                await run(requests, report: { continuation.yield($0) })
                continuation.finish()
                _ = self.running.withLock { $0.removeValue(forKey: id) }
            }
            running[id] = task
            return task
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Prefetches started and not yet finished (a test hook).
    package var activePrefetches: Int { running.withLock { $0.count } }

    /// Cancels every prefetch in progress.
    public func cancel() {
        for task in running.withLock({ Array($0.values) }) { task.cancel() }
    }

    private enum Outcome { case completed, failed, skipped }

    private func run(_ requests: [ImageRequest], report: @Sendable (Progress) -> Void) async {
        var progress = Progress(total: requests.count)
        report(progress)
        let priority = priority
        var pending = requests.lazy.map { request in
            var request = request
            request.priority = priority
            return request
        }.makeIterator()
        await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<maxConcurrentLoads {
                guard let request = pending.next() else { break }
                group.addTask { await self.load(request) }
            }
            while let outcome = await group.next() {
                switch outcome {
                case .completed: progress.completed += 1
                case .failed: progress.failed += 1
                case .skipped: progress.skipped += 1
                }
                report(progress)
                if !Task.isCancelled, let request = pending.next() { group.addTask { await self.load(request) } }
            }
        }
    }

    private func load(_ request: ImageRequest) async -> Outcome {
        if pipeline.cachedImage(for: request) != nil { return .skipped }
        if !warmsMemory, await pipeline.hasDiskEntry(for: request) { return .skipped }
        do {
            _ = try await pipeline.image(for: request)
            return .completed
        } catch {
            return .failed
        }
    }
}

extension ImagePipeline {
    /// `true` when the disk cache holds the request's original bytes or its processed variant.
    func hasDiskEntry(for request: ImageRequest) async -> Bool {
        guard let cache = configuration.dataCache else { return false }
        let keys = keys(for: request)
        for key in Set([keys.data, keys.image]) where (try? await cache.containsData(for: key)) == true { return true }
        return false
    }
}
