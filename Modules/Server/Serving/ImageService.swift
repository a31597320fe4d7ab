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
    let logger: Logger

    /// A service answering from `pipeline`, whose configuration must have an encoder.
    public init(pipeline: ImagePipeline, configuration: Configuration, logger: Logger = Logger(label: "osprey.server")) {
        self.pipeline = pipeline
        self.configuration = configuration
        negotiation = FormatNegotiation(offersAVIF: configuration.offersAVIF)
        self.logger = logger
    }

    /// The answer to `request`, whose path past the mount point is `path`
    /// (`/{signature}/{options…}/{source}`).
    public func respond(to request: Request, path: String) async -> Response {
        let parsed: ImgproxyPath
        do throws(ImgproxyError) {
            parsed = try authorized(path)
        } catch {
            return Answers.text(.init(code: error.status), error.description)
        }
        if let refusal = configuration.sources.refusal(for: parsed.source) { return refused(parsed.source, refusal) }
        let response: ImageResponse
        do {
            response = try await pipeline.image(for: parsed.options.imageRequest(source: parsed.source))
        } catch {
            if let refusal = Answers.refusal(in: error) { return refused(parsed.source, refusal) }
            return Answers.failure(error)
        }
        Self.record(response.tier)
        return encoded(response.image, options: parsed.options, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// `path` parsed, with its signature checked (or unsigned URLs allowed).
    func authorized(_ path: String) throws(ImgproxyError) -> ImgproxyPath {
        let parsed = try ImgproxyPath(path)
        if parsed.isUnsigned {
            guard configuration.allowsUnsigned else { throw ImgproxyError.unsigned }
        } else if !configuration.signingKeys.pairs.isEmpty, !configuration.signingKeys.verify(parsed.signature, path: parsed.signedPart) {
            throw ImgproxyError.badSignature
        }
        return parsed
    }

    /// `image` in the format asked for or negotiated, with its validators; a `304` when the
    /// client holds it already.
    func encoded(_ image: Image, options: ImgproxyOptions, accept: String?, ifNoneMatch: String?) -> Response {
        guard let encoder = pipeline.configuration.encoder else {
            return Answers.text(.internalServerError, "the pipeline has no encoder")
        }
        let format = options.format ?? negotiation.format(accept: accept, hasAlpha: image.pixelFormat.hasAlpha,
                                                          isAnimated: image.animation != nil)
        let quality = Double(options.quality ?? configuration.defaultQuality) / 100
        let bytes: Data
        do {
            bytes = try encoder.encode(image, options: EncodingOptions(format: format, quality: quality))
        } catch {
            return Answers.text(.internalServerError, "could not encode the image: \(error)")
        }
        let tag = EntityTag(Answers.fingerprint(bytes))
        var headers: HTTPFields = [.eTag: tag.header, .cacheControl: "public, max-age=\(configuration.maxAge)"]
        if options.format == nil { headers[.vary] = "Accept" }
        if tag.matches(ifNoneMatch: ifNoneMatch) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = format.mimeType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A source the policy keeps out: counted, logged with the source, answered with the reason.
    func refused(_ source: URL, _ reason: SourceRefusal) -> Response {
        Counter(label: "osprey_source_refusals_total", dimensions: [("reason", reason.rawValue)]).increment()
        logger.notice("refused a source", metadata: ["source": "\(source.absoluteString)", "reason": "\(reason.rawValue)"])
        return Answers.refused(reason)
    }

    /// Where an image came from: `network` counts a source fetch.
    static func record(_ tier: ImageResponse.Tier) {
        Counter(label: "osprey_image_tier_total", dimensions: [("tier", tier.rawValue)]).increment()
        if tier == .network { Counter(label: "osprey_source_fetches_total").increment() }
    }
}
