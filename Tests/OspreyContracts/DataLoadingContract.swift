import Foundation
import OspreyDomain
import OspreyTesting
import Testing

/// The behaviour every ``DataLoading`` must show, against resources a fixture provides
/// (a real test server for real loaders, canned answers for fakes).
public struct DataLoadingContract: Sendable {
    /// What the checks need: a loader and the URLs it can reach.
    public struct Fixture: Sendable {
        /// The loader under test.
        public var loader: any DataLoading
        /// A URL answering 200 with ``okBody``.
        public var okURL: URL
        /// The body ``okURL`` answers with; a few hundred KB shows progress in several steps.
        public var okBody: Data
        /// A URL answering 404.
        public var notFoundURL: URL
        /// A URL whose answer does not finish for at least ten seconds.
        public var slowURL: URL

        /// Creates a fixture.
        public init(loader: any DataLoading, okURL: URL, okBody: Data, notFoundURL: URL, slowURL: URL) {
            self.loader = loader
            self.okURL = okURL
            self.okBody = okBody
            self.notFoundURL = notFoundURL
            self.slowURL = slowURL
        }
    }

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case deliversTheBytesAndStatus, progressIsMonotonicAndComplete, progressStreamFinishes,
             cancellationEndsTheLoadPromptly, httpFailureIsTypedWithStatus, nonHTTPSchemeIsRefused
    }

    private let make: @Sendable () async throws -> Fixture

    /// Creates the contract; `make` builds a fresh fixture for each check.
    public init(make: @escaping @Sendable () async throws -> Fixture) { self.make = make }

    /// Runs one check.
    public func run(_ check: Check) async throws {
        let fixture = try await make()
        let loader = fixture.loader
        switch check {
        case .deliversTheBytesAndStatus:
            let response = try await loader.loadData(for: DataRequest(url: fixture.okURL))
            #expect(response.data == fixture.okBody)
            #expect(response.metadata.statusCode == 200)
        case .progressIsMonotonicAndComplete:
            let steps = Locked<[TransferProgress]>([])
            let response = try await loader.loadData(for: DataRequest(url: fixture.okURL)) { step in
                steps.withLock { $0.append(step) }
            }
            let seen = steps.withLock { $0 }
            #expect(!seen.isEmpty, "progress was reported")
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed }, "byte counts never go back")
            #expect(seen.last?.completed == Int64(response.data.count), "the last step counts every byte")
        case .progressStreamFinishes:
            let transfer = loader.transfer(for: DataRequest(url: fixture.okURL))
            var last: TransferProgress?
            for await step in transfer.progress { last = step }
            #expect(try await transfer.response.data == fixture.okBody)
            #expect(last?.completed == Int64(fixture.okBody.count))
        case .cancellationEndsTheLoadPromptly:
            // The slow URL takes a minute or more: returning within half of one proves the
            // cancellation ended it, even while the test runner starves async tasks (12 s seen
            // on a fresh clone's run). Sub-100 ms promptness is each loader's own test.
            let task = Task { try await loader.loadData(for: DataRequest(url: fixture.slowURL)) }
            try await Task.sleep(for: .milliseconds(100))
            let cancelledAt = ContinuousClock.now
            task.cancel()
            let result = await task.result
            let waited = ContinuousClock.now - cancelledAt
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(waited < Sanitizer.scaled(.seconds(30)), "the call returned \(waited) after cancellation")
        case .httpFailureIsTypedWithStatus:
            let url = fixture.notFoundURL
            await #expect(throws: DataLoadingError.httpStatus(404, url: url.absoluteString)) {
                try await loader.loadData(for: DataRequest(url: url))
            }
        case .nonHTTPSchemeIsRefused:
            let url = URL(string: "ftp://127.0.0.1/image.jpg")!
            await #expect(throws: DataLoadingError.unsupportedScheme("ftp", url: url.absoluteString)) {
                try await loader.loadData(for: DataRequest(url: url))
            }
        }
    }
}
