import Foundation
import Hummingbird
import Logging
import Metrics
import OspreyDomain

/// imgproxy-compatible image serving over an `ImagePipeline`: an imgproxy URL is parsed
/// and its signature checked, its source checked against the policy, loaded through the
/// pipeline, encoded in the format the URL names or the client accepts, and answered with
/// validators, `Vary` and `304`.
///
/// ```swift
/// let service = ImageService(pipeline: pipeline, configuration: .init(signingKeys: keys))
/// let router = Router()
/// router.addImageRoutes(service, at: "/images")
/// ```
public final class ImageService: Sendable {
    /// Where images come from; its encoder writes the answers.
    public let pipeline: ImagePipeline
    public let configuration: Configuration
    let negotiation: FormatNegotiation
    let answers: AnswerCache
    let logger: Logger
    /// The watermark image and a digest of its pixels, which names it in cache keys.
    let watermark: (image: Image, name: String)?

    /// A service answering from `pipeline`, whose configuration must have an encoder.
    /// Answers are kept in memory, and in the pipeline's disk cache when it has one and
    /// ``Configuration/keepsAnswersOnDisk``.
    public init(pipeline: ImagePipeline, configuration: Configuration, logger: Logger = Logger(label: "osprey.server")) {
        self.pipeline = pipeline
        self.configuration = configuration
        negotiation = FormatNegotiation(offersAVIF: configuration.offersAVIF, offersJXL: configuration.offersJXL, preferred: configuration.preferredFormats)
        watermark = configuration.watermark.map { ($0, Answers.fingerprint(Data($0.pixels))) }
        answers = AnswerCache(memoryLimit: configuration.answerMemoryLimit,
                              disk: configuration.keepsAnswersOnDisk ? pipeline.configuration.dataCache : nil,
                              clock: pipeline.configuration.clock, logger: logger)
        self.logger = logger
    }

    /// The answer to `request`, whose path past the mount point is `path`
    /// (`/{signature}/{options…}/{source}`). Every answer carries the request's id
    /// (`X-Request-ID`: the client's own when it sent a plain one, else a new one), under which
    /// a failure's detail is logged.
    public func respond(to request: Request, path: String) async -> Response {
        let id = Self.requestID(from: request.headers[.init(Self.requestIDField)!])
        // The work runs as a task of its own, so that the deadline can cancel it: a cancelled
        // load ends with CancellationError, which is answered 504.
        let work = Task { await Self.$currentRequestID.withValue(id) { await self.answer(request, path: path) } }
        let deadline = configuration.timeout.map { timeout in Task { try await Task.sleep(for: timeout); work.cancel() } }
        var response = await withTaskCancellationHandler { await work.value } onCancel: { work.cancel() }
        deadline?.cancel()
        response.headers[.init(Self.requestIDField)!] = id
        // No answer is read as anything but its declared type, nor runs a script (an SVG).
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.contentSecurityPolicy] = "script-src 'none'"
        if let origin = configuration.corsOrigin { response.headers[.accessControlAllowOrigin] = origin }
        return response
    }

    static let requestIDField = "X-Request-ID"
    @TaskLocal static var currentRequestID = ""

    /// The client's id when it is 1–64 letters, digits, `-` or `_` (as imgproxy takes it), else a new one.
    static func requestID(from header: String?) -> String {
        if let header, (1...64).contains(header.utf8.count),
           header.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) {
            return header
        }
        return (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }

    /// `problem` answered with its class's text, its detail logged under the request's id.
    func failure(_ problem: Problem) -> Response {
        logger.notice("request failed", metadata: ["request-id": "\(Self.currentRequestID)", "class": "\(problem.kind.rawValue)",
                                                   "detail": "\(problem.detail)"])
        return problem.response(development: configuration.developmentErrors)
    }

    func answer(_ request: Request, path: String) async -> Response {
        let start = ContinuousClock.now
        guard let encoder = pipeline.configuration.encoder else {
            return failure(Problem(.internalError, "the pipeline has no encoder"))
        }
        if let secret = configuration.secret, !Self.authorization(request.headers[.authorization], carries: secret) {
            return failure(Problem(.forbidden, "the request does not carry the server's secret"))
        }
        let parsed: ImgproxyPath
        do throws(ImgproxyError) {
            parsed = try authorized(path)
        } catch {
            return failure(Problem(error))
        }
        let resolved: ResolvedSource
        do throws(SourceProblem) {
            resolved = try resolve(parsed.source)
        } catch {
            switch error {
            case .refused(let refusal): return refused(parsed.source, refusal)
            case .notFound: return failure(Problem(.notFound, "no file for \(parsed.source.absoluteString)"))
            }
        }
        if parsed.options.raw || !parsed.options.skipProcessing.isEmpty,
           let unprocessed = await unprocessed(resolved, options: parsed.options) {
            return unprocessed
        }
        let offers = negotiation.offers(accept: request.headers[.accept])
        // AVIF and JPEG XL cost far more to encode: a URL naming one the server does not offer
        // is answered as if it named none.
        let named = parsed.options.format.flatMap { negotiation.writes($0) ? $0 : nil }
        let format = configuration.enforcedFormats.first(where: offers.contains) ?? named
        let choice = AnswerChoice(format: format, offers: format == nil ? offers : [],
                                  varies: named == nil || !configuration.enforcedFormats.isEmpty)
        // Every frame when the answer may be in a format that animates; the frames are in the
        // image's key, so in the answer's too (as a local file's size and time are).
        let imageRequest = parsed.options.imageRequest(source: resolved.source, watermark: watermark,
                                                       animates: (choice.format.map { [$0] } ?? choice.offers).contains { Self.animatedFormats.contains($0) })
        let key = answerKey(for: imageRequest, options: parsed.options, choice: choice)
        let conditions = Conditions(request.headers)
        if let (kept, tier) = await answers.answer(for: key) {
            Counter(label: "osprey_answer_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
            return respond(with: kept, to: parsed, choice: choice, conditions: conditions, timing: (tier.rawValue, .now - start))
        }
        let response: ImageResponse
        do {
            response = try await pipeline.image(for: imageRequest)
        } catch {
            if Task.isCancelled { return failure(Problem(.timedOut, "the deadline passed while loading: \(error)")) }
            if let refusal = Answers.refusal(in: error) { return refused(parsed.source, refusal) }
            if let fallback = await fallback(for: parsed, choice: choice, encoder: encoder, start: start) { return fallback }
            return failure(Problem(error))
        }
        Self.record(response.tier)
        let answer: EncodedAnswer
        do {
            let lastModified = resolved.lastModified ?? response.source?.lastModified
            answer = try await pipeline.performOnWorkers {
                try self.encoded(response, by: encoder, key: key, options: parsed.options, choice: choice, lastModified: lastModified)
            }
        } catch {
            return failure(Problem(.internalError, "could not encode the image: \(error)"))
        }
        await answers.store(answer, for: key)
        return respond(with: answer, to: parsed, choice: choice, conditions: conditions, timing: (response.tier.rawValue, .now - start))
    }

    /// The formats whose encoders write every frame.
    static let animatedFormats: Set<ImageFormat> = [.webp, .jxl]

    /// `path` parsed, with its signature checked (or unsigned URLs allowed) and its expiry.
    func authorized(_ path: String) throws(ImgproxyError) -> ImgproxyPath {
        let parsed = try ImgproxyPath(path, presets: configuration.presets, onlyPresets: configuration.onlyPresets)
        if parsed.isUnsigned {
            // A configured key means every URL is signed, whatever else is set.
            guard configuration.allowsUnsigned, configuration.signingKeys.pairs.isEmpty else { throw ImgproxyError.unsigned }
        } else if !configuration.signingKeys.pairs.isEmpty, !configuration.signingKeys.verify(parsed.signature, path: parsed.signedPart) {
            throw ImgproxyError.badSignature
        }
        if let expires = parsed.options.expires, expires <= pipeline.configuration.clock.now { throw ImgproxyError.expired }
        return parsed
    }

    /// The key an answer is kept under: the image's, with what else decides the bytes (the
    /// format asked for, or the formats the client's `Accept` lets the server offer, the
    /// quality).
    func answerKey(for request: ImageRequest, options: ImgproxyOptions, choice: AnswerChoice) -> CacheKey {
        let image = pipeline.keys(for: request).image
        let format = choice.format?.rawValue ?? "auto(" + choice.offers.map(\.rawValue).joined(separator: ",") + ")"
        var quality = "q=\(options.quality ?? configuration.defaultQuality)"
        if options.quality == nil, !options.formatQuality.isEmpty {
            quality += ",fq=" + options.formatQuality.map { "\($0.key.rawValue):\($0.value)" }.sorted().joined(separator: ":")
        }
        let bound = options.maxBytes.map { ",mb=\($0)" } ?? ""
        let buster = options.cacheBuster.map { ",cb=\($0)" } ?? ""
        let variant = [image.variant, "answer=\(format),\(quality)\(bound)\(buster)"].filter { !$0.isEmpty }.joined(separator: ";")
        return CacheKey(source: image.source, variant: variant)
    }

    /// The image in the format asked for or negotiated, encoded by the pipeline's encoder,
    /// with a tag from what determines it: the key, the format and the source's validators
    /// (a weak tag), or without validators, the bytes themselves (a strong one).
    func encoded(_ response: ImageResponse, by encoder: any ImageEncoding, key: CacheKey, options: ImgproxyOptions,
                 choice: AnswerChoice, lastModified: String?) throws -> EncodedAnswer {
        let image = response.image
        let format = choice.format ?? negotiation.format(offers: choice.offers, hasAlpha: image.pixelFormat.hasAlpha,
                                                         isAnimated: image.animation != nil, source: response.source?.format)
        let quality = options.quality ?? options.formatQuality[format] ?? configuration.defaultQuality
        let bytes = try Self.encode(image, as: format, quality: quality, maxBytes: options.maxBytes, by: encoder)
        let source = response.source
        let tag: EntityTag = if let source, source.etag != nil || source.lastModified != nil {
            EntityTag(digesting: [key.stringValue, format.rawValue, source.etag ?? "", source.lastModified ?? ""], isWeak: true)
        } else {
            EntityTag(digesting: [key.stringValue, format.rawValue, Answers.fingerprint(bytes)], isWeak: false)
        }
        return EncodedAnswer(bytes: bytes, format: format, tag: tag, freshUntil: source?.freshUntil, lastModified: lastModified)
    }

    /// `image` in `format` at `quality`; with `maxBytes`, for the lossy formats, encoded again
    /// at a lower quality until it fits or the quality reaches 10, as imgproxy's `max_bytes`:
    /// the further over, the larger the step down.
    static func encode(_ image: Image, as format: ImageFormat, quality: Int, maxBytes: Int?,
                       by encoder: any ImageEncoding) throws -> Data {
        var quality = quality
        while true {
            let bytes = try encoder.encode(image, options: EncodingOptions(format: format, quality: Double(quality) / 100))
            guard let maxBytes, bytes.count > maxBytes, quality > 10, [.jpeg, .webp, .avif, .jxl].contains(format) else { return bytes }
            let over = Double(bytes.count) / Double(maxBytes)
            quality = max(10, Int(Double(quality) * (over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75)))
        }
    }

    /// `answer` with its validators, or a `304` when the client holds it already;
    /// `Server-Timing` names the tier that answered and the time taken.
    func respond(with answer: EncodedAnswer, to request: ImgproxyPath, choice: AnswerChoice, conditions: Conditions,
                 timing: (String, Duration)) -> Response {
        let milliseconds = timing.1 / .milliseconds(1)
        var maxAge = configuration.maxAge
        if configuration.passesCacheControl, let freshUntil = answer.freshUntil {
            maxAge = max(0, Int(freshUntil.timeIntervalSince(pipeline.configuration.clock.now)))
        }
        var headers: HTTPFields = [.eTag: answer.tag.header, .cacheControl: "public, max-age=\(maxAge)"]
        headers[.init("Server-Timing")!] = "\(timing.0);dur=\(String(format: "%.1f", milliseconds))"
        headers[.contentDisposition] = ContentDisposition.header(for: request, format: answer.format)
        if let lastModified = answer.lastModified { headers[.lastModified] = lastModified }
        if choice.varies { headers[.vary] = "Accept" }
        if conditions.areMet(by: answer) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = answer.format.mimeType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.bytes)))
    }

    /// A source the policy keeps out: counted by reason, answered as refused, the reason and
    /// the source in the log.
    func refused(_ source: URL, _ reason: SourceRefusal) -> Response {
        Counter(label: "osprey_source_refusals_total", dimensions: [("reason", reason.rawValue)]).increment()
        return failure(Problem(.refused, "\(reason): \(source.absoluteString)"))
    }

    /// Where an image came from: `network` counts a source fetch.
    static func record(_ tier: ImageResponse.Tier) {
        Counter(label: "osprey_image_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
        if tier == .network { Counter(label: "osprey_source_fetches_total").increment() }
    }
}
