import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("ImagePipeline coalescing and cancellation")
struct ImagePipelineConcurrencyTests {
    @Test func hundredConcurrentIdenticalRequestsMakeExactlyOneLoad() async throws {
        // Given a loader that holds every load until the test lets it go
        let h = PipelineHarness(holding: true)
        let request = h.request(PixelSize(width: 20, height: 20))
        // When 100 callers ask at once
        let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
            for _ in 0..<100 { group.addTask { try await h.pipeline.image(for: request) } }
            try await h.waitForCallers(100, on: request)
            h.loader.gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then one download fed them all
        #expect(responses.count == 100)
        #expect(h.loader.loadCount == 1)
        #expect(Set(responses.map(\.image)).count == 1)
        #expect(responses.allSatisfy { $0.tier == .network })
        #expect(await h.pipeline.startedLoads().images == 1)
    }

    @Test func aSlowOriginHoldsOnlyItsShareOfTheLoadSlots() async throws {
        // Given two load slots, one per origin, and an origin whose loads hang
        let loader = MockDataLoader()
        let slow = (1...4).map { URL(string: "https://slow.example/\($0).ospf")! }
        for url in slow { loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: url, held: true) }
        let fast = URL(string: "https://fast.example/photo.ospf")!
        loader.serve(FakeImageCodec.encodedSolid(PipelineHarness.size), at: fast)
        var configuration = ImagePipeline.Configuration(dataLoader: loader, decoder: FakeImageCodec(), maxConcurrentLoads: 2)
        configuration.maxConcurrentLoadsPerOrigin = 1
        let pipeline = ImagePipeline(configuration: configuration)
        let hanging = slow.map { url in Task { try await pipeline.image(for: ImageRequest(url: url)) } }
        // A hang guard, not a bound: at the suite's start both cooperative threads can be busy
        // for 20 s and more with other suites' blocking work on two cores.
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(120))
        while loader.loadCount < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        // When another origin's image is asked for
        let other = Task { try await pipeline.image(for: ImageRequest(url: fast)) }
        while loader.requests.filter({ $0.url == fast }).isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        let reached = !loader.requests.filter({ $0.url == fast }).isEmpty
        if !reached { loader.gate.open() }  // end the test instead of hanging
        // Then it is loaded while the slow origin's four wait, one of them in flight
        #expect(reached, "the other origin's load found a slot")
        #expect(try await other.value.tier == .network)
        #expect(loader.requests.filter { $0.url.host == "slow.example" }.count == 1, "the slow origin holds one slot")
        loader.gate.open()
        for task in hanging { #expect(try await task.value.image.size == PipelineHarness.size) }
    }

    @Test func differentSizesInFlightShareOneDownload() async throws {
        let h = PipelineHarness(holding: true)
        let small = h.request(PixelSize(width: 8, height: 8)), large = h.request(PixelSize(width: 40, height: 40))
        async let a = h.pipeline.image(for: small)
        async let b = h.pipeline.image(for: large)
        try await h.waitForCallers(1, on: small)
        try await h.waitForCallers(1, on: large)
        h.loader.gate.open()
        let (first, second) = try await (a, b)
        #expect(first.image.size == PixelSize(width: 8, height: 6) && second.image.size == PixelSize(width: 40, height: 30))
        #expect(h.loader.loadCount == 1)
    }

    @Test func cancellingOneCallerLeavesTheOthersTheirImage() async throws {
        let h = PipelineHarness(holding: true)
        let request = h.request()
        let leaving = Task { try await h.pipeline.image(for: request) }
        let staying = Task { try await h.pipeline.image(for: request) }
        try await h.waitForCallers(2, on: request)
        // When one caller cancels
        leaving.cancel()
        // Then it gets CancellationError at once, while the load goes on
        await #expect(throws: CancellationError.self) { try await leaving.value }
        try await h.waitForCallers(1, on: request)
        h.loader.gate.open()
        let response = try await staying.value
        #expect(response.image.size == PipelineHarness.size)
        #expect(h.loader.loadCount == 1)
        #expect(h.loader.cancellationCount == 0, "the shared load was not cancelled")
    }

    @Test func cancellingEveryCallerCancelsTheLoad() async throws {
        let h = PipelineHarness(holding: true)
        let request = h.request()
        let callers = (0..<3).map { _ in Task { try await h.pipeline.image(for: request) } }
        try await h.waitForCallers(3, on: request)
        try await h.waitForLoads(1)
        for caller in callers { caller.cancel() }
        for caller in callers { await #expect(throws: CancellationError.self) { try await caller.value } }
        // The loader saw its load cancelled, and nothing was cached
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(120))
        while h.loader.cancellationCount == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(h.loader.cancellationCount == 1)
        #expect(h.memory.usage == .zero)
        #expect(try await h.disk.usage() == .zero)
        // A later request starts a fresh load
        h.loader.gate.open()
        #expect(try await h.pipeline.image(for: request).tier == .network)
        #expect(h.loader.loadCount == 2)
    }

    @Test func callerCancelledBeforeAskingGetsCancellationError() async throws {
        let h = PipelineHarness()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await h.pipeline.image(for: h.request())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(h.loader.loadCount == 0)
    }
}
