import Foundation
import Hummingbird
import Metrics
import OspreyDomain

extension ImageService {
    /// The source's bytes as they are, for `raw`, or for `skip_processing` when the source's
    /// format is one it lists; `nil` to process it. The bytes come through the pipeline's
    /// shared, cached download, so a source it does not skip is not fetched again, and only
    /// bytes of an image format the server decodes are answered.
    func unprocessed(_ resolved: ResolvedSource, options: ImgproxyOptions) async throws(ServerError) -> Response? {
        let source: CachedData
        do {
            source = try await pipeline.data(for: ImageRequest(source: resolved.source))
        } catch {
            if Task.isCancelled { throw ServerError(.timedOut, "the deadline passed while loading: \(error)") }
            throw ServerError(error)
        }
        guard let format = source.metadata.format, options.raw || options.skipProcessing.contains(format) else { return nil }
        let headers: HTTPFields = [.contentType: format.mediaType,
                                   .cacheControl: "public, max-age=\(configuration.maxAge)",
                                   .eTag: "\"" + ContentDigest.hex(source.data) + "\""]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: source.data)))
    }

    /// The server's fallback image, processed as `request` asks, when its source failed:
    /// `200` with `Fallback-Image: 1`; `nil` without a fallback image or when it fails too.
    func fallback(for request: ImgproxyPath, encoding: OutputEncoding, varies: Bool, start: ContinuousClock.Instant) async -> Response? {
        guard let path = configuration.fallbackImage else { return nil }
        let imageRequest = request.options.imageRequest(source: .file(path: URL(fileURLWithPath: path).standardizedFileURL.path),
                                                        watermark: watermark)
        guard let encoded = try? await pipeline.encodedImage(for: imageRequest, as: encoding) else { return nil }
        Counter(label: "osprey_fallback_answers_total").increment()
        var answered = respond(with: encoded, to: request, varies: varies, lastModified: nil, conditions: Conditions([:]), timing: .now - start)
        answered.headers[.init("Server-Timing")!] = "fallback;dur=\(String(format: "%.1f", (ContinuousClock.now - start) / .milliseconds(1)))"
        answered.headers[.init("Fallback-Image")!] = "1"
        return answered
    }
}
