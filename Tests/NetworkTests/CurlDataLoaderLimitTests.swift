import Foundation
import OspreyDomain
@_spi(Parsing) @testable import OspreyNetwork
import OspreyContracts
import OspreyTesting
import Testing

@Suite("CurlDataLoader limits and memory")
struct CurlDataLoaderLimitTests {
    @Test("The global and per-host limits hold however many callers ask at once",
          arguments: [(global: 3, perHost: 6), (global: 6, perHost: 2)])
    func concurrencyLimits(_ limits: (global: Int, perHost: Int)) async throws {
        let h = try NetworkHarness(configuration: .init(maxConcurrentTransfers: limits.global, maxConnectionsPerHost: limits.perHost))
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<12 { group.addTask { try await h.load("/delay/80/files/photo.jpg").data } }
            var bodies: [Data] = []
            for try await body in group { bodies.append(body) }
            return bodies
        }
        #expect(bodies.count == 12 && bodies.allSatisfy { $0 == NetworkHarness.body })
        #expect(h.server.peakConcurrentDelays == min(limits.global, limits.perHost), "peak \(h.server.peakConcurrentDelays)")
        h.server.stop()
    }

    @Test func bodiesHeldByCallersAreNeverReusedAndReleasedOnesAre() async throws {
        let h = try NetworkHarness()
        let other = DataCachingContract.bytes(2_500_000, seed: 9)  // a huge-page class block
        h.server.serve("other.bin", other)
        var kept: [Data] = []
        for round in 0..<10 {
            let small = try await h.load("/files/photo.jpg").data
            let large = try await h.load("/files/other.bin").data
            if round.isMultiple(of: 2) { kept += [small, large] }  // the odd rounds' blocks go back to the pool
        }
        #expect(kept.count == 10)
        for (index, body) in kept.enumerated() {
            #expect(body == (index.isMultiple(of: 2) ? NetworkHarness.body : other), "body \(index) intact")
        }
        h.server.stop()
    }
}

@Suite("CurlDataLoader's lifetime", .timeLimit(.minutes(Sanitizer.scaled(1))))
struct CurlDataLoaderLifetimeTests {
    @Test func aLoaderLetGoFreesItsLoopAndItsBodyMemory() async throws {
        let server = try TestHTTPServer()
        server.serve("photo.jpg", NetworkHarness.body)
        var loader: CurlDataLoader? = CurlDataLoader()
        _ = try await loader!.loadData(for: DataRequest(url: server.url("/files/photo.jpg")))
        weak let engine = loader!.engine
        loader = nil
        // The loop's thread holds the engine until the loop ends, and nothing holds the thread.
        let deadline = ContinuousClock.now + Sanitizer.scaled(.seconds(5))
        while engine != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(engine == nil, "the engine (and its idle body blocks) freed")
        server.stop()
    }
}
