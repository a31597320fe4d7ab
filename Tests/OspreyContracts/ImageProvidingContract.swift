import OspreyDomain
import OspreyTesting
import Testing

/// The behaviour every ``ImageProviding`` must show.
public struct ImageProvidingContract: Sendable {
    /// What the checks need.
    public struct Fixture: Sendable {
        /// The provider under test.
        public var provider: any ImageProviding
        /// A request that succeeds, and the size of its image.
        public var okRequest: ImageRequest
        /// The size ``okRequest`` gives.
        public var okSize: PixelSize
        /// A request that fails.
        public var failingRequest: ImageRequest
        /// A request that takes at least ten seconds unless cancelled.
        public var slowRequest: ImageRequest

        /// Creates a fixture.
        public init(provider: any ImageProviding, okRequest: ImageRequest, okSize: PixelSize, failingRequest: ImageRequest, slowRequest: ImageRequest) {
            self.provider = provider
            self.okRequest = okRequest
            self.okSize = okSize
            self.failingRequest = failingRequest
            self.slowRequest = slowRequest
        }
    }

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case deliversTheImage, failuresArePipelineErrors, cancelledCallerGetsCancellationError
    }

    private let make: @Sendable () async throws -> Fixture

    /// Creates the contract; `make` builds a fresh fixture for each check.
    public init(make: @escaping @Sendable () async throws -> Fixture) { self.make = make }

    /// Runs one check.
    public func run(_ check: Check) async throws {
        let fixture = try await make()
        switch check {
        case .deliversTheImage:
            let response = try await fixture.provider.image(for: fixture.okRequest)
            #expect(response.image.size == fixture.okSize)
        case .failuresArePipelineErrors:
            await #expect(throws: ImagePipeline.Error.self) { try await fixture.provider.image(for: fixture.failingRequest) }
        case .cancelledCallerGetsCancellationError:
            // The slow request takes five minutes or for ever: returning within one proves the
            // cancellation ended it, even while the suite's child processes hold the shared
            // pool's two threads (12 s seen on a fresh clone's run).
            let task = Task { try await fixture.provider.image(for: fixture.slowRequest) }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            let started = ContinuousClock.now
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ContinuousClock.now - started < Sanitizer.scaled(.seconds(60)))
        }
    }
}
