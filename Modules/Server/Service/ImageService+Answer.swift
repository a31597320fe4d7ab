import Foundation
import Logging
import Metrics
import Osprey

extension ImageService {
    /// The answer to `request`, within the service's deadline: the source resolved under the
    /// policy, passed through when the URL or the server skips processing, else the pipeline's
    /// encoded stage asked for it; the fallback image when the source fails.
    /// - Throws: ``ServerError``; a timeout when the deadline passes or the request is cancelled.
    package func answer(_ request: ImgproxyRequest, logger: Logger) async throws(ServerError) -> ImageAnswer {
        activity.begin()
        defer { activity.end() }
        return try await Deadline.run(within: configuration.timeout) { () async throws(ServerError) -> ImageAnswer in
            try await self.made(request, logger: logger)
        }
    }

    private func made(_ request: ImgproxyRequest, logger: Logger) async throws(ServerError) -> ImageAnswer {
        let start = ContinuousClock.now
        let options = request.path.options
        var resolved: ResolvedSource
        do {
            resolved = try resolve(request.path.source)
            resolved.headers = request.sourceHeaders
        } catch where error.kind == .unreachable {
            // A missing file is a source that failed, as a missing object is: the fallback answers.
            return try await fallback(for: request, failure: error, start: start, logger: logger)
        }
        if let unprocessed = try await unprocessed(resolved, request: request.path) { return unprocessed }
        if options.format == .svg { throw ServerError(.unwritableFormat, "only an SVG source is answered as SVG") }
        let sourceFacts = try await checkedSource(resolved, against: options.security)
        // Every frame when the answer may be in a format that animates and animations are
        // allowed at all; the frames are in the image's key, so in the answer's too (as a
        // local file's size and time are).
        let animates = configuration.maxAnimationFrames > 1 && options.security.maxAnimationFrames != 1
            && request.encoding.formats.contains { codec.encoders[$0]?.capabilities(for: $0)?.animation == true }
        var imageRequest = options.imageRequest(source: resolved.source, watermark: watermark, animates: animates)
        imageRequest.sourceHeaders = resolved.headers
        let encoded: EncodedImage
        do {
            encoded = try await pipeline.encodedImage(for: imageRequest, as: request.encoding)
        } catch {
            if let refusal = ServerError.refusal(in: error) { throw refused(request.path.source, refusal) }
            return try await fallback(for: request, failure: ServerError(error), start: start, logger: logger)
        }
        Self.record(encoded)
        let lastModified = busted(resolved.lastModified ?? encoded.source?.lastModified)
        return answer(with: encoded, to: request, lastModified: lastModified, sourceFacts: sourceFacts, timing: .now - start)
    }

    /// The server's fallback image, processed as `request` asks, when its source failed with
    /// `failure`: with `Fallback-Image: 1`, the configured status (or the failure's own) and
    /// max-age. Without a fallback image, or when it fails too (which is logged), `failure`.
    private func fallback(for request: ImgproxyRequest, failure: ServerError, start: ContinuousClock.Instant,
                          logger: Logger) async throws(ServerError) -> ImageAnswer {
        guard let source = configuration.fallbackImage, !Task.isCancelled else { throw failure }
        let imageRequest = request.path.options.imageRequest(source: source, watermark: watermark)
        let encoded: EncodedImage
        do {
            encoded = try await pipeline.encodedImage(for: imageRequest, as: request.encoding)
        } catch {
            logger.error("the fallback image failed too", metadata: ["error": "\(error)"])
            throw failure
        }
        Counter(label: "fallback_answers_total").increment()
        let status = configuration.fallbackStatus == 0 ? failure.status : .init(code: configuration.fallbackStatus)
        var answered = answer(with: encoded, to: request, lastModified: nil, sourceFacts: nil, timing: .now - start, status: status, fallback: true)
        answered.headers[.init("Fallback-Image")!] = "1"
        return answered
    }
}
