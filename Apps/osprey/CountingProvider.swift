import ArgumentParser
import Foundation
import Osprey

/// A provider that calls back after each image, for progress.
struct CountingProvider: ImageProviding {
    let pipeline: ImagePipeline
    let onFinish: @Sendable () -> Void

    func image(for request: ImageRequest) async throws -> ImageResponse {
        defer { onFinish() }
        return try await pipeline.image(for: request)
    }
}
