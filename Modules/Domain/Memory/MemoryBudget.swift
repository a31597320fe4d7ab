import Foundation

/// The memory the work in flight may take: each piece of work reserves its estimate before it
/// starts and gives it back when it ends, and is admitted only while the reservations, the
/// caches' bytes and a fixed overhead fit the limit — and, where the process's resident memory
/// can be measured, while it and the estimate fit too, since estimates miss what libraries and
/// the allocator hold. When they do not, the caches give way first (least recently used
/// entries out) and the allocator is asked to give back what it holds free; otherwise the work
/// waits, at most ``maxWait``, and waiting work is admitted in arrival order as it fits. Work
/// whose estimate alone is over ``limit`` less ``overhead`` is refused at once, so nothing
/// waits for room that can never be made; and while no reservation runs, the smallest waiting
/// work is admitted whatever is held or resident, since nothing else could make room.
///
/// ```swift
/// let budget = MemoryBudget(limit: 300_000_000, overhead: 40_000_000, caches: [memoryCache])
/// let thumbnail = try await budget.withReservation(of: estimate) { try await makeThumbnail() }
/// ```
public final class MemoryBudget: Sendable {
    /// The most bytes the process should hold.
    public let limit: Int
    /// What the process holds outside reservations and caches: its code, runtime, threads,
    /// connections and the allocator's slack.
    public let overhead: Int
    /// What admission keeps free of the measured resident memory, for what grows after work
    /// is admitted and no estimate counts: downloads under way, buffers, the allocator's slack.
    public let headroom: Int
    /// The longest a piece of work waits for room before ``MemoryBudgetError/waitedTooLong(_:)``.
    public let maxWait: Duration
    private let caches: [any MemoryTrimming]
    private let resident: (@Sendable () -> Int?)?
    private let reclaim: (@Sendable () -> Void)?
    private let state = Locked(State())

    private struct State {
        /// Reservations and held bytes.
        var inFlight = 0
        /// Reservations alone: while none runs, nothing held can end without admitting one.
        var reserved = 0
        var waiting: [Waiter] = []
        var nextID = 0
        /// Waiters given an id and not yet in the queue.
        var joining: Set<Int> = []
        /// Of those, the ones cancelled or timed out before they joined.
        var abandoned: [Int: any Error] = [:]
        var lastReclaim = ContinuousClock.now - .seconds(1)
    }

    private struct Waiter {
        let id: Int
        let bytes: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// What the budget counts now.
    public struct Usage: Hashable, Sendable {
        public var limit: Int
        public var overhead: Int
        /// The estimates of the work admitted and not yet ended, and the bytes held.
        public var inFlight: Int
        /// The caches' bytes.
        public var cached: Int
        /// Pieces of work waiting for room.
        public var waiting: Int
    }

    /// A budget of `limit` bytes, of which `overhead` is the process's own; `caches` are
    /// counted against it and shrunk when work needs their room. `resident` measures the
    /// process's resident bytes (`nil`: estimates alone), and `reclaim` has the allocator give
    /// its free memory back when what is resident stands in the way; admission keeps
    /// `headroom` of it free.
    public init(limit: Int, overhead: Int = 0, caches: [any MemoryTrimming] = [], maxWait: Duration = .seconds(5),
                resident: (@Sendable () -> Int?)? = nil, headroom: Int = 0, reclaim: (@Sendable () -> Void)? = nil) {
        self.limit = limit
        self.overhead = overhead
        self.headroom = headroom
        self.caches = caches
        self.maxWait = maxWait
        self.resident = resident
        self.reclaim = reclaim
    }

    /// The most one piece of work may reserve: the limit less the overhead.
    public var available: Int { max(0, limit - overhead) }

    /// What the budget counts now.
    public var usage: Usage {
        let cached = caches.reduce(0) { $0 + $1.cost }
        return state.withLock { Usage(limit: limit, overhead: overhead, inFlight: $0.inFlight, cached: cached, waiting: $0.waiting.count) }
    }

    /// Runs `work` once `bytes` fit the budget, holding them until it ends.
    /// - Throws: ``MemoryBudgetError``, `CancellationError` when the task is cancelled while
    ///   it waits, or what `work` throws.
    public func withReservation<T>(of bytes: Int, _ work: () async throws -> T) async throws -> T {
        let bytes = max(0, bytes)
        try await reserve(bytes)
        defer { release(bytes, reserved: true) }
        return try await work()
    }

    /// Counts `bytes` that are allocated already (a downloaded source, a decoded image) while
    /// `work` runs, without waiting: work admitted meanwhile sees them.
    public func withHeld<T>(_ bytes: Int, _ work: () async throws -> T) async rethrows -> T {
        let bytes = max(0, bytes)
        state.withLock { $0.inFlight += bytes }
        defer { release(bytes) }
        return try await work()
    }

    private func reserve(_ bytes: Int) async throws {
        guard bytes <= available else { throw MemoryBudgetError.overBudget(estimate: bytes, budget: available) }
        try Task.checkCancellation()
        let id: Int? = state.withLock { state in
            if admits(bytes, &state) { return nil }
            if state.waiting.isEmpty, state.reserved == 0 {
                // Nothing runs and nobody waits: nothing else could make room.
                state.inFlight += bytes
                state.reserved += bytes
                return nil
            }
            state.nextID += 1
            state.joining.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        let timer = Task { [maxWait] in
            try await Task.sleep(for: maxWait)
            self.abandon(id, with: MemoryBudgetError.waitedTooLong(maxWait))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (refusal, admitted) = state.withLock { state -> ((any Error)?, [Waiter]) in
                    state.joining.remove(id)
                    if let error = state.abandoned.removeValue(forKey: id) { return (error, []) }
                    state.waiting.append(Waiter(id: id, bytes: bytes, continuation: continuation))
                    // Room may have been made between the first look and joining the queue.
                    return (nil, admitsWaiting(&state))
                }
                if let refusal { continuation.resume(throwing: refusal) }
                for waiter in admitted { waiter.continuation.resume() }
            }
        } onCancel: {
            abandon(id, with: CancellationError())
        }
    }

    private func release(_ bytes: Int, reserved: Bool = false) {
        let admitted = state.withLock { state in
            state.inFlight -= bytes
            if reserved { state.reserved -= bytes }
            return admitsWaiting(&state)
        }
        for waiter in admitted { waiter.continuation.resume() }
    }

    /// Takes waiter `id` out of the queue with `error`; one not yet in it is turned away as it joins.
    private func abandon(_ id: Int, with error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                if state.joining.contains(id) { state.abandoned[id] = error }
                return nil
            }
            return state.waiting.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// The waiters that now fit, admitted in arrival order; when none does and no reservation
    /// runs, the smallest, since nothing else could make room for any of them.
    private func admitsWaiting(_ state: inout State) -> [Waiter] {
        var admitted: [Waiter] = []
        var index = 0
        while index < state.waiting.count {
            if admits(state.waiting[index].bytes, &state) {
                admitted.append(state.waiting.remove(at: index))
            } else {
                index += 1
            }
        }
        if admitted.isEmpty, state.reserved == 0,
           let smallest = state.waiting.indices.min(by: { state.waiting[$0].bytes < state.waiting[$1].bytes }) {
            let waiter = state.waiting.remove(at: smallest)
            state.inFlight += waiter.bytes
            state.reserved += waiter.bytes
            admitted.append(waiter)
        }
        return admitted
    }

    /// Whether `bytes` fit now, the caches shrunk and the allocator trimmed if that makes them
    /// fit; when they do, they are counted in flight.
    private func admits(_ bytes: Int, _ state: inout State) -> Bool {
        guard overhead + state.inFlight + bytes <= limit else { return false }
        var excess = self.excess(bytes, state)
        if excess > 0 {
            for cache in caches where excess > 0 {
                let before = cache.cost
                cache.trim(toCost: max(0, before - excess))
                excess -= before - cache.cost
            }
            excess = self.excess(bytes, state)
        }
        if excess > 0, let reclaim, ContinuousClock.now - state.lastReclaim > .milliseconds(200) {
            reclaim()
            state.lastReclaim = .now
            excess = self.excess(bytes, state)
        }
        guard excess <= 0 else { return false }
        state.inFlight += bytes
        state.reserved += bytes
        return true
    }

    /// How far `bytes` are over the limit, counted and, where it can be, measured.
    private func excess(_ bytes: Int, _ state: State) -> Int {
        let counted = overhead + state.inFlight + bytes + caches.reduce(0) { $0 + $1.cost } - limit
        guard let measured = resident?() else { return counted }
        return max(counted, measured + headroom + bytes - limit)
    }
}
