import Foundation
import Hummingbird
import Metrics
import OspreyDomain

extension ImageService {
    /// The source's bytes as they are, for `raw`, or for `skip_processing` when the source's
    /// format is one it lists; `nil` to process it. The bytes come through the pipeline's
    /// shared, cached download, so a source it does not skip is not fetched again, and only
    /// bytes of an image format the server decodes are answered.
    func unprocessed(_ resolved: ResolvedSource, options: ImgproxyOptions) async -> Response? {
        let source: CachedData
        do {
            source = try await pipeline.data(for: ImageRequest(source: resolved.source))
        } catch {
            if Task.isCancelled { return failure(Problem(.timedOut, "the deadline passed while loading: \(error)")) }
            return failure(Problem(error))
        }
        guard let format = source.metadata.format, options.raw || options.skipProcessing.contains(format) else { return nil }
        let headers: HTTPFields = [.contentType: format.mimeType,
                                   .cacheControl: "public, max-age=\(configuration.maxAge)",
                                   .eTag: EntityTag(digesting: [Answers.fingerprint(source.data)], isWeak: false).header]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: source.data)))
    }

    /// The server's fallback image, processed as `request` asks, when its source failed:
    /// `200` with `Fallback-Image: 1`, not kept (so the real image is answered once its
    /// source is back); `nil` without a fallback image or when it fails too.
    func fallback(for request: ImgproxyPath, choice: AnswerChoice, encoder: any ImageEncoding,
                  start: ContinuousClock.Instant) async -> Response? {
        guard let path = configuration.fallbackImage else { return nil }
        let imageRequest = request.options.imageRequest(source: .file(path: path), watermark: watermark)
        let key = answerKey(for: imageRequest, options: request.options, choice: choice)
        guard let response = try? await pipeline.image(for: imageRequest),
              let answer = try? encoded(response, by: encoder, key: key, options: request.options, choice: choice, lastModified: nil)
        else { return nil }
        Counter(label: "osprey_fallback_answers_total").increment()
        var answered = respond(with: answer, to: request, choice: choice, conditions: Conditions([:]), timing: ("fallback", .now - start))
        answered.headers[.init("Fallback-Image")!] = "1"
        return answered
    }

    /// Whether an `Authorization` header is `Bearer {secret}`, compared in constant time.
    static func authorization(_ header: String?, carries secret: String) -> Bool {
        let given = Array((header ?? "").utf8), expected = Array("Bearer \(secret)".utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
