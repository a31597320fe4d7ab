import Foundation
import Hummingbird
import Logging
import Metrics
import Osprey

/// imgproxy-compatible image serving: an imgproxy URL is parsed and its signature checked,
/// its source checked against the policy, and the pipeline's encoded stage asked for the
/// image in the format the URL names or the client accepts; the answer carries validators,
/// `Vary` and `304`. Failures are thrown as ``ServerError``s.
///
/// The service builds its pipeline from its configuration, so the loader's source policy,
/// limits and S3 store always follow the service's settings.
///
/// ```swift
/// let service = try ImageService(configuration: .init(signingKeys: keys, sources: SourcePolicy(allowedPrefixes: [origin])))
/// let router = Router()
/// router.addImageRoutes(service, at: "/images")
/// ```
public final class ImageService: Sendable {
    /// Where images come from, built from the configuration.
    public let pipeline: ImagePipeline
    public let configuration: Configuration
    let negotiation: FormatNegotiation
    let logger: Logger
    /// The watermark image and a digest of its pixels, which names it in cache keys.
    let watermark: (image: Image, name: String)?
    /// The disk cache, closed when the server stops.
    let disk: DiskCache?

    /// A service over a pipeline made from `configuration`.
    /// - Throws: ``ServerConfigurationError`` when settings contradict each other, a file or
    ///   the disk cache cannot be used, or no encoder writes a format answers may be in.
    public init(configuration: Configuration, logger: Logger = Logger(label: "osprey.server")) throws(ServerConfigurationError) {
        try configuration.validate()
        let parts: (pipeline: ImagePipeline, memory: MemoryCache?, disk: DiskCache?)
        do {
            parts = try configuration.pipelineConfiguration.makeParts()
        } catch {
            throw .unusable("the disk cache: \(error)")
        }
        guard let encoder = parts.pipeline.configuration.encoder else { throw .missingEncoder(.jpeg) }
        let written = Set(encoder.capabilities.map(\.format))
        if let missing = configuration.answerFormats.subtracting(written).sorted(by: { $0.rawValue < $1.rawValue }).first {
            throw .missingEncoder(missing)
        }
        pipeline = parts.pipeline
        disk = parts.disk
        self.configuration = configuration
        self.logger = logger
        negotiation = FormatNegotiation(offersAVIF: configuration.offersAVIF, offersJXL: configuration.offersJXL,
                                        enforced: configuration.enforcedFormats, preferred: configuration.preferredFormats, written: written)
        watermark = configuration.watermark.map { ($0, ContentDigest.hex($0.pixels)) }
    }

    /// Saves the disk cache's index and closes it: the service answers from memory and the
    /// network only after this.
    public func close() { disk?.close() }

    /// The answer to `request`, whose path past the mount point is `path`
    /// (`/{signature}/{options…}/{source}`), within the deadline.
    /// - Throws: ``ServerError``.
    func respond(to request: Request, path: String) async throws -> Response {
        // The work runs as a task of its own, so that the deadline can cancel it: a cancelled
        // load ends with CancellationError, which is answered 504.
        let work = Task { try await self.answer(request, path: path) }
        let deadline = configuration.timeout.map { timeout in Task { try await Task.sleep(for: timeout); work.cancel() } }
        defer { deadline?.cancel() }
        do {
            return try await withTaskCancellationHandler { try await work.value } onCancel: { work.cancel() }
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(.timedOut, "the deadline passed: \(error)")
        }
    }

    func answer(_ request: Request, path: String) async throws(ServerError) -> Response {
        let start = ContinuousClock.now
        if let secret = configuration.secret, !Self.authorization(request.headers[.authorization], carries: secret) {
            throw ServerError(.forbidden, "the request does not carry the server's secret")
        }
        let parsed = try authorized(path)
        let resolved = try resolve(parsed.source)
        if parsed.options.raw || !parsed.options.skipProcessing.isEmpty,
           let unprocessed = try await unprocessed(resolved, options: parsed.options) {
            return unprocessed
        }
        if let named = parsed.options.format, !negotiation.written.contains(named) {
            throw ServerError(.invalidURL, "no encoder writes \(named)")
        }
        let choice = negotiation.choice(named: parsed.options.format, accept: request.headers[.accept])
        let encoding = parsed.options.encoding(choice.format, defaultQuality: configuration.defaultQuality)
        // Every frame when the answer may be in a format that animates; the frames are in the
        // image's key, so in the answer's too (as a local file's size and time are).
        let animates = encoding.formats.contains { pipeline.configuration.encoder?.capabilities(for: $0)?.animation == true }
        let imageRequest = parsed.options.imageRequest(source: resolved.source, watermark: watermark, animates: animates)
        let encoded: EncodedImage
        do {
            encoded = try await pipeline.encodedImage(for: imageRequest, as: encoding)
        } catch {
            if Task.isCancelled { throw ServerError(.timedOut, "the deadline passed while loading: \(error)") }
            if let refusal = ServerError.refusal(in: error) { throw refused(parsed.source, refusal) }
            if let fallback = await fallback(for: parsed, encoding: encoding, varies: choice.varies, start: start) { return fallback }
            throw ServerError(error)
        }
        Self.record(encoded)
        let lastModified = resolved.lastModified ?? encoded.source?.lastModified
        return respond(with: encoded, to: parsed, varies: choice.varies, lastModified: lastModified,
                       conditions: Conditions(request.headers), timing: .now - start)
    }

    /// `path` parsed, with its signature checked (or unsigned URLs allowed) and its expiry.
    func authorized(_ path: String) throws(ServerError) -> ImgproxyPath {
        do throws(ImgproxyError) {
            let parsed = try ImgproxyPath(path, presets: configuration.presets, onlyPresets: configuration.onlyPresets)
            if parsed.isUnsigned {
                // A configured key means every URL is signed, whatever else is set.
                guard configuration.allowsUnsigned, configuration.signingKeys.pairs.isEmpty else { throw ImgproxyError.unsigned }
            } else if !configuration.signingKeys.pairs.isEmpty, !configuration.signingKeys.verify(parsed.signature, path: parsed.signedPart) {
                throw ImgproxyError.badSignature
            }
            if let expires = parsed.options.expires, expires <= pipeline.configuration.clock.now { throw ImgproxyError.expired }
            return parsed
        } catch {
            throw ServerError(error)
        }
    }

    /// `encoded` with its validators, or a `304` when the client holds it already;
    /// `Server-Timing` names the tier that answered and the time taken.
    func respond(with encoded: EncodedImage, to request: ImgproxyPath, varies: Bool, lastModified: String?,
                 conditions: Conditions, timing: Duration) -> Response {
        var maxAge = configuration.maxAge
        if configuration.passesCacheControl, let freshUntil = encoded.source?.freshUntil {
            maxAge = max(0, Int(freshUntil.timeIntervalSince(pipeline.configuration.clock.now)))
        }
        let tier = encoded.keptIn.map { "answer-" + $0.rawValue } ?? encoded.imageTier?.rawValue ?? "encoded"
        var headers: HTTPFields = [.eTag: encoded.entityTag, .cacheControl: "public, max-age=\(maxAge)"]
        headers[.init("Server-Timing")!] = "\(tier);dur=\(String(format: "%.1f", timing / .milliseconds(1)))"
        headers[.contentDisposition] = ContentDisposition.header(for: request, format: encoded.format)
        if let lastModified { headers[.lastModified] = lastModified }
        if varies { headers[.vary] = "Accept" }
        if conditions.areMet(tag: EntityTag(header: encoded.entityTag), lastModified: lastModified) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = encoded.format.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: encoded.data)))
    }

    /// A source the policy keeps out, counted by reason.
    func refused(_ source: URL, _ reason: SourceRefusal) -> ServerError {
        Counter(label: "osprey_source_refusals_total", dimensions: [("reason", reason.rawValue)]).increment()
        return ServerError(.refused, "\(reason): \(source.absoluteString)")
    }

    /// Where an answer came from: a kept answer by its tier, a made one by its image's
    /// (`network` counts a source fetch).
    static func record(_ encoded: EncodedImage) {
        if let kept = encoded.keptIn {
            Counter(label: "osprey_answer_tier_total", dimensions: [("tier", "answer-" + kept.rawValue)]).increment()
        } else if let tier = encoded.imageTier {
            Counter(label: "osprey_image_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
            if tier == .network { Counter(label: "osprey_source_fetches_total").increment() }
        }
    }

    /// Whether an `Authorization` header is `Bearer {secret}`, compared in constant time.
    static func authorization(_ header: String?, carries secret: String) -> Bool {
        let given = Array((header ?? "").utf8), expected = Array("Bearer \(secret)".utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
