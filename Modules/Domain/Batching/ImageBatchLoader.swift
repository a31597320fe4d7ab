/// Loads several images in parallel and hands the results back in request order.
///
/// Two modes:
/// - ``loadEach(_:)``: every request on its own; a failure is that request's result.
/// - ``loadAll(_:)``: all or nothing — the "four-cut" card that shows a frame and four
///   photos only when all five are ready. The first failure cancels the rest and is thrown.
///
/// Built on ``ImageProviding`` alone, so it works with any provider.
public struct ImageBatchLoader: Sendable {
    /// Where images come from, usually an ``ImagePipeline``.
    public let provider: any ImageProviding
    /// Loads at once (default 6).
    public let maxConcurrentLoads: Int

    /// Creates a batch loader.
    public init(provider: any ImageProviding, maxConcurrentLoads: Int = 6) {
        self.provider = provider
        self.maxConcurrentLoads = max(1, maxConcurrentLoads)
    }

    /// Each request's result, in request order.
    public func loadEach(_ requests: [ImageRequest]) async -> [Result<ImageResponse, any Error>] {
        let provider = provider
        return await withTaskGroup(of: (Int, Result<ImageResponse, any Error>).self) { group in
            var results = [Result<ImageResponse, any Error>?](repeating: nil, count: requests.count)
            var pending = requests.enumerated().makeIterator()
            for _ in 0..<maxConcurrentLoads {
                guard let (index, request) = pending.next() else { break }
                group.addTask { await Self.result(of: request, at: index, from: provider) }
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if let (next, request) = pending.next() {
                    group.addTask { await Self.result(of: request, at: next, from: provider) }
                }
            }
            return results.map { $0 ?? .failure(CancellationError()) }
        }
    }

    /// Every image, in request order, or the first error — after which the other loads
    /// are cancelled and nothing is returned.
    public func loadAll(_ requests: [ImageRequest]) async throws -> [ImageResponse] {
        let provider = provider
        return try await withThrowingTaskGroup(of: (Int, ImageResponse).self) { group in
            var responses = [ImageResponse?](repeating: nil, count: requests.count)
            var pending = requests.enumerated().makeIterator()
            for _ in 0..<maxConcurrentLoads {
                guard let (index, request) = pending.next() else { break }
                group.addTask { (index, try await provider.image(for: request)) }
            }
            do {
                while let (index, response) = try await group.next() {
                    responses[index] = response
                    if let (next, request) = pending.next() {
                        group.addTask { (next, try await provider.image(for: request)) }
                    }
                }
            } catch {
                group.cancelAll()
                throw error
            }
            return responses.map { $0! }
        }
    }

    private static func result(of request: ImageRequest, at index: Int, from provider: any ImageProviding) async
        -> (Int, Result<ImageResponse, any Error>) {
        do {
            return (index, .success(try await provider.image(for: request)))
        } catch {
            return (index, .failure(error))
        }
    }
}
