import Foundation
import Logging
import OspreyDomain

/// Encoded answers kept so that a repeated URL is neither decoded nor encoded again: in
/// memory up to a byte limit (least recently used first out), and in the pipeline's disk
/// cache, where they outlive a restart beside the originals they were made from (and, when
/// that cache has a fleet's shared tier, reach the fleet's other servers).
final class AnswerCache: Sendable {
    /// Which tier held an answer, for `Server-Timing` and the metrics.
    enum Tier: String, Sendable {
        case memory = "answer-memory"
        case disk = "answer-disk"
        /// The shared tier of a fleet (Redis, behind the disk cache): another server made it.
        case shared = "answer-shared"
    }

    private struct Entry {
        let answer: EncodedAnswer
        var lastUse: UInt64
    }

    private struct State {
        var entries: [CacheKey: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let memoryLimit: Int
    private let disk: (any DataCaching)?
    private let clock: any OspreyDomain.Clock
    private let logger: Logger
    private let state = Locked(State())

    init(memoryLimit: Int, disk: (any DataCaching)?, clock: any OspreyDomain.Clock, logger: Logger) {
        self.memoryLimit = memoryLimit
        self.disk = disk
        self.clock = clock
        self.logger = logger
    }

    /// A fresh answer kept under `key`, and the tier that held it.
    func answer(for key: CacheKey) async -> (EncodedAnswer, Tier)? {
        let time = clock.now
        let kept = state.withLock { state -> EncodedAnswer? in
            guard let entry = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key]?.lastUse = state.clock
            return entry.answer
        }
        if let kept, !kept.isStale(at: time) { return (kept, .memory) }
        guard let disk else { return nil }
        let cached: CachedData?
        do {
            cached = try await disk.cachedData(for: key)
        } catch {
            logger.warning("answer cache read failed, treating as a miss", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
        guard let cached, let answer = EncodedAnswer(cached), !answer.isStale(at: time) else { return nil }
        keepInMemory(answer, for: key)
        return (answer, cached.tier == .shared ? .shared : .disk)
    }

    /// Keeps `answer` in memory and on disk.
    func store(_ answer: EncodedAnswer, for key: CacheKey) async {
        keepInMemory(answer, for: key)
        do {
            try await disk?.store(answer.cached, for: key)
        } catch {
            logger.warning("answer cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
    }

    /// Bytes held in memory, for tests.
    var memoryBytes: Int { state.withLock { $0.bytes } }

    private func keepInMemory(_ answer: EncodedAnswer, for key: CacheKey) {
        let cost = answer.bytes.count
        // One answer may take a tenth of the limit, as the image cache's entries.
        guard cost * 10 <= memoryLimit else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries.updateValue(Entry(answer: answer, lastUse: state.clock), forKey: key) {
                state.bytes -= old.answer.bytes.count
            }
            state.bytes += cost
            guard state.bytes > memoryLimit else { return }
            // Out in one batch down to three quarters of the limit, oldest use first.
            for (oldKey, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > memoryLimit * 3 / 4 else { break }
                state.entries[oldKey] = nil
                state.bytes -= entry.answer.bytes.count
            }
        }
    }
}
