import Foundation
import Hummingbird
import Metrics
import OspreyDomain

extension ImageService {
    /// The source's bytes as they are, for `raw`, or for `skip_processing` when the source's
    /// format is one it lists; `nil` to process it. The source is read here, not through the
    /// pipeline's caches, so one it does not skip is fetched again by the pipeline.
    func unprocessed(_ resolved: ResolvedSource, options: ImgproxyOptions) async -> Response? {
        let data: Data
        do {
            switch resolved.source {
            case .file(let path):
                data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            case .url(let url):
                data = try await pipeline.configuration.dataLoader.loadData(for: DataRequest(url: url)).data
            }
        } catch let error as DataLoadingError {
            return failure(Problem(ImagePipeline.Error.dataLoadingFailed(error)))
        } catch {
            return failure(Problem(.notFound, "could not read \(resolved.source)"))
        }
        let format = try? pipeline.configuration.decoder.detectFormat(of: data.prefix(64))
        guard options.raw || format.map(options.skipProcessing.contains) == true else { return nil }
        let headers: HTTPFields = [.contentType: format?.mimeType ?? "application/octet-stream",
                                   .cacheControl: "public, max-age=\(configuration.maxAge)",
                                   .eTag: EntityTag(digesting: [Answers.fingerprint(data)], isWeak: false).header]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
