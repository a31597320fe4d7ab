import Foundation
import HTTPTypes
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
    /// The pipeline's codec: its decoders, encoders and limits, for what the service reads
    /// or checks itself.
    let codec: ImageCodec
    public let configuration: Configuration
    let negotiation: FormatNegotiation
    let logger: Logger
    /// The watermark image and a digest of its pixels, which names it in cache keys.
    let watermark: (image: Image, name: String)?
    /// The disk cache, closed when the server stops.
    let disk: DiskCache?
    /// The requests in the service now, for giving memory back when idle.
    let activity = RequestActivity()

    /// A service over a pipeline made from `configuration`.
    /// - Throws: ``ServerConfigurationError`` when settings contradict each other, a file or
    ///   the disk cache cannot be used, or no encoder writes a format answers may be in.
    public init(configuration: Configuration, logger: Logger = Logger(label: "osprey.server")) throws(ServerConfigurationError) {
        try configuration.validate()
        let osprey = configuration.pipelineConfiguration
        codec = osprey.codec
        let watermark = try configuration.watermark.map { (source) throws(ServerConfigurationError) in try Self.decode(source, with: osprey.codec) }
        let parts: (pipeline: ImagePipeline, memory: MemoryCache?, disk: DiskCache?)
        do {
            parts = try osprey.makeParts()
        } catch {
            throw .unusable("the disk cache: \(error)")
        }
        pipeline = parts.pipeline
        disk = parts.disk
        self.configuration = configuration
        self.logger = logger
        negotiation = FormatNegotiation(auto: configuration.autoFormats, enforced: configuration.enforcedFormats,
                                        preferred: configuration.preferredFormats, codec: codec,
                                        namedOnlyWhenOffered: configuration.formatsNamedOnlyWhenOffered)
        self.watermark = watermark.map { ($0, ContentDigest.hex($0.pixels)) }
    }

    /// The watermark: a file, or the bytes of a `data:` URL.
    private static func decode(_ source: ImageSource, with codec: ImageCodec) throws(ServerConfigurationError) -> Image {
        do {
            switch source {
            case .file(let path): return try codec.decode(.file(path: path), options: DecodingOptions())
            case .url(let url) where url.scheme?.lowercased() == "data":
                return try codec.decode(.data(try DataURLLoader.decode(url.absoluteString).data), options: DecodingOptions())
            case .url(let url): throw ServerConfigurationError.unusable("the watermark \(url.absoluteString): give a file or its bytes")
            }
        } catch let error as ServerConfigurationError {
            throw error
        } catch {
            throw .unusable("the watermark: \(error)")
        }
    }

    /// Saves the disk cache's index and closes it: the service answers from memory and the
    /// network only after this.
    public func close() { disk?.close() }

    /// The answer to `request`, whose path past the mount point is `path`
    /// (`/{signature}/{options…}/{source}`), within the deadline.
    /// - Throws: ``ServerError``.
    func respond(to request: Request, path: String) async throws -> Response {
        activity.begin()
        defer { activity.end() }
        // The work runs as a task of its own, so that the deadline can cancel it: a cancelled
        // load ends with CancellationError, which is answered 503, as imgproxy's timeout.
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
        let (parsed, choice, encoding) = try read(path, headers: request.headers)
        let options = parsed.options
        let resolved: ResolvedSource
        do {
            resolved = try resolve(parsed.source)
        } catch where error.kind == .unreachable {
            // A missing file is a source that failed, as a missing object is: the fallback answers.
            if let fallback = await fallback(for: parsed, encoding: encoding, varies: choice.varies, failure: error, start: start) { return fallback }
            throw error
        }
        if let unprocessed = try await unprocessed(resolved, request: parsed) { return unprocessed }
        if options.format == .svg { throw ServerError(.unwritableFormat, "only an SVG source is answered as SVG") }
        let sourceFacts = try await checkedSource(resolved, against: options.security)
        // Every frame when the answer may be in a format that animates and animations are
        // allowed at all; the frames are in the image's key, so in the answer's too (as a
        // local file's size and time are).
        let animates = configuration.maxAnimationFrames > 1 && options.security.maxAnimationFrames != 1
            && encoding.formats.contains { pipeline.configuration.encoder?.capabilities(for: $0)?.animation == true }
        let imageRequest = options.imageRequest(source: resolved.source, watermark: watermark, animates: animates)
        let encoded: EncodedImage
        do {
            encoded = try await pipeline.encodedImage(for: imageRequest, as: encoding)
        } catch {
            if Task.isCancelled { throw ServerError(.timedOut, "the deadline passed while loading: \(error)") }
            if let refusal = ServerError.refusal(in: error) { throw refused(parsed.source, refusal) }
            if let fallback = await fallback(for: parsed, encoding: encoding, varies: choice.varies, failure: ServerError(error), start: start) {
                return fallback
            }
            throw ServerError(error)
        }
        if let limit = options.security.maxResultDimension, limit > 0, max(encoded.size.width, encoded.size.height) > limit {
            throw ServerError(.tooLarge, "the result, \(encoded.size.width)×\(encoded.size.height), is over \(limit) pixels a side")
        }
        Self.record(encoded)
        let lastModified = resolved.lastModified ?? encoded.source?.lastModified
        return respond(with: encoded, to: parsed, varies: choice.varies, lastModified: lastModified, sourceFacts: sourceFacts,
                       conditions: Conditions(request.headers), timing: .now - start)
    }

    /// What a request asks for, read before anything is fetched: the server's secret checked,
    /// its path verified and parsed over its client hints, the answer's format chosen by the
    /// URL and `Accept`, and how the answer is encoded.
    func read(_ path: String, headers: HTTPFields) throws(ServerError) -> (ImgproxyPath, AnswerChoice, OutputEncoding) {
        if let secret = configuration.secret, !Self.authorization(headers[.authorization], carries: secret) {
            throw ServerError(.forbidden, "the request does not carry the server's secret")
        }
        let parsed = try authorized(path, hints: headers)
        let options = parsed.options
        // SVG is answered only as an SVG source passed through (`unprocessed`), never encoded.
        if let named = options.format, named != .svg, !negotiation.written.contains(named) {
            throw ServerError(.unwritableFormat, "no encoder writes \(named)")
        }
        let choice = negotiation.choice(named: options.format, accept: headers[.accept])
        let encoding = options.encoding(choice.format, defaultQuality: configuration.defaultQuality, serverQualities: configuration.formatQualities)
        return (parsed, choice, encoding)
    }

    /// `path` with its signature checked (or unsigned URLs allowed) before anything else in
    /// it is read, then parsed over the client hints in `hints` (when the server takes them),
    /// and its expiry.
    func authorized(_ path: String, hints: HTTPFields = [:]) throws(ServerError) -> ImgproxyPath {
        do throws(ImgproxyError) {
            let signed = try ImgproxyPath.Signed(path)
            if signed.isUnsigned {
                // A configured key means every URL is signed, whatever else is set.
                guard configuration.allowsUnsigned, configuration.signingKeys.pairs.isEmpty else { throw ImgproxyError.unsigned }
            } else if !configuration.signingKeys.pairs.isEmpty, !configuration.trustedSignatures.contains(signed.signature),
                      !configuration.signingKeys.verify(signed.signature, path: signed.signedPart) {
                throw ImgproxyError.badSignature
            }
            let parsed = try ImgproxyPath(signed, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
                                          baseURL: configuration.baseURL, defaults: defaultOptions(hints: hints))
            if let expires = parsed.options.expires, expires <= pipeline.configuration.clock.now { throw ImgproxyError.expired }
            return parsed
        } catch {
            throw ServerError(error)
        }
    }

    /// `encoded` with its validators, or a `304` when the client holds it already;
    /// `Server-Timing` names the tier that answered and the time taken.
    func respond(with encoded: EncodedImage, to request: ImgproxyPath, varies: Bool, lastModified: String?, sourceFacts: SourceFacts?,
                 conditions: Conditions, timing: Duration, status: HTTPResponse.Status = .ok, fallback: Bool = false) -> Response {
        let tier = encoded.keptIn.map { "answer-" + $0.rawValue } ?? encoded.imageTier?.rawValue ?? "encoded"
        var headers: HTTPFields = [.cacheControl: cacheControl(expires: request.options.expires, fallback: fallback,
                                                               freshUntil: encoded.source?.freshUntil)]
        headers[.init("Server-Timing")!] = "\(tier);dur=\(String(format: "%.1f", timing / .milliseconds(1)))"
        headers[.contentDisposition] = ContentDisposition.header(for: request, format: encoded.format,
                                                                 attachment: request.options.returnsAttachment ?? configuration.returnsAttachment)
        let tag = configuration.usesETags && status == .ok ? encoded.entityTag : nil
        let lastModified = configuration.usesLastModified ? lastModified : nil
        if let tag { headers[.eTag] = tag }
        if let lastModified { headers[.lastModified] = lastModified }
        if let vary = vary(accept: varies) { headers[.vary] = vary }
        if configuration.setsCanonicalHeader, ["http", "https"].contains(request.source.scheme?.lowercased() ?? "") {
            headers[HTTPField.Name("Link")!] = "<\(request.source.absoluteString)>; rel=\"canonical\""
        }
        if configuration.debugHeaders {
            headers[.init("X-Result-Width")!] = String(encoded.size.width)
            headers[.init("X-Result-Height")!] = String(encoded.size.height)
            if let sourceFacts {
                headers[.init("X-Origin-Width")!] = String(sourceFacts.width)
                headers[.init("X-Origin-Height")!] = String(sourceFacts.height)
                headers[.init("X-Origin-Content-Length")!] = String(sourceFacts.bytes)
            }
        }
        if status == .ok, conditions.areMet(tag: tag.flatMap(EntityTag.init(header:)), lastModified: lastModified) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = encoded.format.mediaType
        return Response(status: status, headers: headers, body: .answer(encoded.data, countedBy: pipeline.configuration.memoryBudget))
    }

    /// The request headers an answer depends on: `Accept` when it `varies` with it, and the
    /// client hints where the server takes them.
    func vary(accept varies: Bool) -> String? {
        let names = (varies ? ["Accept"] : []) + (configuration.usesClientHints ? ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"] : [])
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// imgproxy's `Cache-Control`: the server's max-age, or the fallback image's, or the
    /// source's freshness when passed through; cut short by the URL's expiry; `no-cache` at 0.
    func cacheControl(expires: Date?, fallback: Bool, freshUntil: Date?) -> String {
        let now = pipeline.configuration.clock.now
        var ttl: Int? = fallback ? configuration.fallbackMaxAge.flatMap { $0 > 0 ? $0 : nil } : nil
        if let expires, ttl.map({ expires < now.addingTimeInterval(TimeInterval($0)) }) ?? true {
            ttl = min(configuration.maxAge, max(0, Int(expires.timeIntervalSince(now).rounded(.up))))
        }
        // Rounded up: the answer is made moments after the source's freshness was read.
        if ttl == nil, configuration.passesCacheControl, let freshUntil { ttl = max(0, Int(freshUntil.timeIntervalSince(now).rounded(.up))) }
        let maxAge = ttl ?? configuration.maxAge
        return maxAge > 0 ? "max-age=\(maxAge), public" : "no-cache"
    }

    /// The options the server's settings and a client's hints give before the URL's: the
    /// colour profile kept or not, EXIF orientation applied or not, and, where the server takes client hints (imgproxy's
    /// client hints): `Sec-CH-DPR` or `DPR` the ratio, `Sec-CH-Width` or
    /// `Width` the width in device pixels.
    func defaultOptions(hints headers: HTTPFields) -> ImgproxyOptions {
        var options = ImgproxyOptions()
        options.keepsColorProfile = configuration.keepsColorProfiles
        options.autoRotates = configuration.autoRotates
        guard configuration.usesClientHints else { return options }
        let header = { (names: [String]) in names.lazy.compactMap { HTTPField.Name($0).flatMap { headers[$0] } }.first }
        if let dpr = ClientNumber.hint(header(["Sec-CH-DPR", "DPR"]), in: 1e-6...8.0) { options.dpr = dpr }
        if let width = ClientNumber.hint(header(["Sec-CH-Width", "Width"]), in: 1...Int.max) {
            options.width = min(ClientNumber.maxSide, PixelSize.length(Double(width) / options.dpr))
        }
        return options
    }

    /// A source the policy keeps out, counted by reason.
    func refused(_ source: URL, _ reason: SourceRefusal) -> ServerError {
        Counter(label: "source_refusals_total", dimensions: [("reason", reason.rawValue)]).increment()
        return ServerError(.refused, "\(reason): \(source.absoluteString)")
    }

    /// Where an answer came from: a kept answer by its tier, a made one by its image's
    /// (`network` counts a source fetch).
    static func record(_ encoded: EncodedImage) {
        if let kept = encoded.keptIn {
            Counter(label: "answer_tier_total", dimensions: [("tier", "answer-" + kept.rawValue)]).increment()
        } else if let tier = encoded.imageTier {
            Counter(label: "image_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
            if tier == .network { Counter(label: "source_fetches_total").increment() }
        }
    }

    /// Whether an `Authorization` header is `Bearer {secret}`, compared in constant time.
    static func authorization(_ header: String?, carries secret: String) -> Bool {
        let given = Array((header ?? "").utf8), expected = Array("Bearer \(secret)".utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
