import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("Memory budget")
struct MemoryBudgetTests {
    /// A cache that holds `cost` bytes until trimmed.
    final class TrimmableCache: MemoryTrimming, @unchecked Sendable {
        private let lock = NSLock()
        private var held: Int
        init(_ cost: Int) { held = cost }
        var cost: Int { lock.withLock { held } }
        func trim(toCost cost: Int) { lock.withLock { held = min(held, max(0, cost)) } }
    }

    /// Holds a reservation of `bytes` until `release` is called.
    final class Holder: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var released = false
        private(set) var started = false

        func hold(_ budget: MemoryBudget, _ bytes: Int) async throws {
            try await budget.withReservation(of: bytes) {
                await withCheckedContinuation { continuation in
                    let resumeNow = lock.withLock { () -> Bool in
                        started = true
                        if released { return true }
                        self.continuation = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }

        var hasStarted: Bool { lock.withLock { started } }

        func release() {
            let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                released = true
                defer { self.continuation = nil }
                return self.continuation
            }
            continuation?.resume()
        }
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(30))
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func workWaitsWhileTheWorkInFlightFillsTheBudgetAndGoesOnceItEnds() async throws {
        let budget = MemoryBudget(limit: 100, maxWait: .seconds(60))
        let (first, second) = (Holder(), Holder())
        let one = Task { try await first.hold(budget, 60) }
        try await Self.waitUntil { first.hasStarted }
        let two = Task { try await second.hold(budget, 60) }
        try await Self.waitUntil { budget.usage.waiting == 1 }
        #expect(!second.hasStarted && budget.usage.inFlight == 60, "60 more do not fit beside 60 in 100")
        first.release()
        try await one.value
        try await Self.waitUntil { second.hasStarted }
        #expect(budget.usage.inFlight == 60 && budget.usage.waiting == 0)
        second.release()
        try await two.value
        #expect(budget.usage.inFlight == 0)
    }

    @Test func anEstimateOverWhatTheBudgetCanGiveIsRefusedAtOnce() async throws {
        let budget = MemoryBudget(limit: 100, overhead: 30)
        await #expect(throws: MemoryBudgetError.overBudget(estimate: 71, budget: 70)) {
            try await budget.withReservation(of: 71) {}
        }
        try await budget.withReservation(of: 70) {}
    }

    @Test func workThatWaitsPastItsLongestIsTurnedAway() async throws {
        let budget = MemoryBudget(limit: 100, maxWait: .milliseconds(50))
        let holder = Holder()
        let held = Task { try await holder.hold(budget, 80) }
        try await Self.waitUntil { holder.hasStarted }
        await #expect(throws: MemoryBudgetError.waitedTooLong(.milliseconds(50))) {
            try await budget.withReservation(of: 50) {}
        }
        #expect(budget.usage.waiting == 0)
        holder.release()
        try await held.value
    }

    @Test func theCachesGiveWayBeforeWorkWaits() async throws {
        let cache = TrimmableCache(80)
        let budget = MemoryBudget(limit: 100, caches: [cache])
        try await budget.withReservation(of: 50) {
            #expect(cache.cost == 50, "trimmed by what was over, no further")
        }
        #expect(budget.usage.cached == 50)
    }

    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let budget = MemoryBudget(limit: 100, maxWait: .seconds(60))
        let holder = Holder()
        let held = Task { try await holder.hold(budget, 80) }
        try await Self.waitUntil { holder.hasStarted }
        let waiter = Task { try await budget.withReservation(of: 50) {} }
        try await Self.waitUntil { budget.usage.waiting == 1 }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(budget.usage.waiting == 0)
        holder.release()
        try await held.value
        try await budget.withReservation(of: 100) {}
    }

    @Test func residentMemoryTheEstimatesMissHoldsWorkBack() async throws {
        let reclaims = Locked(0)
        let budget = MemoryBudget(limit: 100, maxWait: .milliseconds(50), resident: { 90 }, reclaim: { reclaims.withLock { $0 += 1 } })
        let holder = Holder()
        // Nothing in flight: the work goes ahead, after the allocator is asked to give back.
        let held = Task { try await holder.hold(budget, 20) }
        try await Self.waitUntil { holder.hasStarted }
        #expect(reclaims.withLock { $0 } == 1)
        await #expect(throws: MemoryBudgetError.waitedTooLong(.milliseconds(50)), "90 resident and 20 more is over 100") {
            try await budget.withReservation(of: 15) {}
        }
        holder.release()
        try await held.value
    }

    @Test func aPipelineRefusesAnImageItsBudgetCannotHoldAndGivesBackWhatItReserved() async throws {
        let harness = PipelineHarness()
        var configuration = harness.pipeline.configuration
        configuration.memoryBudget = MemoryBudget(limit: 10)
        let tight = ImagePipeline(configuration: configuration)
        await #expect {
            try await tight.image(for: harness.request(PixelSize(width: 32, height: 24)))
        } throws: { error in
            if case .memoryBudget(.overBudget)? = error as? ImagePipeline.Error { return true }
            return false
        }
        let roomy = MemoryBudget(limit: 100_000_000)
        configuration.memoryBudget = roomy
        let image = try await ImagePipeline(configuration: configuration).image(for: harness.request(PixelSize(width: 32, height: 24)))
        #expect(image.image.size == PixelSize(width: 32, height: 24) && roomy.usage.inFlight == 0)
    }
}
