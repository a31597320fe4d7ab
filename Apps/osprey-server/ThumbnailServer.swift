import Foundation
import Hummingbird
import Logging
import Osprey
import OspreyServer

/// The server's routes: `/health`, `/metrics`, and every other path read as an imgproxy URL.
final class ThumbnailServer: Sendable {
    let pipeline: ImagePipeline
    let keys: SigningKeys
    let allowUnsigned: Bool
    let policy: SourcePolicy
    let negotiation: FormatNegotiation
    let maxQueue: Int
    let maxAge: Int
    let metrics: ServerMetrics
    let logger = Logger(label: "osprey-server")
    /// Requests being served or waiting for a load slot.
    let inFlight = Locked(0)

    init(pipeline: ImagePipeline, keys: SigningKeys, allowUnsigned: Bool, policy: SourcePolicy,
         negotiation: FormatNegotiation, maxQueue: Int, maxAge: Int, metrics: ServerMetrics) {
        self.pipeline = pipeline
        self.keys = keys
        self.allowUnsigned = allowUnsigned
        self.policy = policy
        self.negotiation = negotiation
        self.maxQueue = maxQueue
        self.maxAge = maxAge
        self.metrics = metrics
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/health") { _, _ in Answers.text(.ok, "ok") }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: self.metrics.text())))
        }
        router.get("**") { request, _ in await self.measured(request) }
        return router
    }

    /// `thumbnail(_:)` within the queue bound, recorded in the metrics.
    func measured(_ request: Request) async -> Response {
        let started = ContinuousClock.now
        // Past the bound, refuse at once rather than let waiting requests pile up in memory.
        let admitted: Int? = inFlight.withLock { count in
            guard count < maxQueue else { return nil }
            count += 1
            return count
        }
        let response: Response
        if let admitted {
            metrics.started(inFlight: admitted)
            response = await thumbnail(request)
        } else {
            metrics.refusedForLoad()
            response = Response(status: .serviceUnavailable, headers: [.retryAfter: "1", .contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "busy: try again\n")))
        }
        let remaining = admitted == nil ? inFlight.withLock { $0 } : inFlight.withLock { count in
            count -= 1
            return count
        }
        metrics.answered(status: response.status.code, bytes: response.body.contentLength ?? 0,
                         duration: .now - started, inFlight: remaining)
        return response
    }

    func thumbnail(_ request: Request) async -> Response {
        let path: ImgproxyPath
        do throws(ImgproxyError) {
            path = try ImgproxyPath(request.uri.path)
            if path.isUnsigned {
                guard allowUnsigned else { throw ImgproxyError.unsigned }
            } else if !keys.pairs.isEmpty, !keys.verify(path.signature, path: path.signedPart) {
                throw ImgproxyError.badSignature
            }
        } catch {
            return Answers.text(.init(code: error.status), error.description)
        }
        if let refusal = policy.refusal(for: path.source) { return refused(path.source, refusal) }
        let response: ImageResponse
        do {
            response = try await pipeline.image(for: Self.imageRequest(for: path))
        } catch {
            if let refusal = Answers.refusal(in: error) { return refused(path.source, refusal) }
            return Answers.failure(error)
        }
        metrics.served(from: response.tier)
        let image = response.image
        let format = path.options.format ?? negotiation.format(accept: request.headers[.accept], hasAlpha: image.pixelFormat.hasAlpha,
                                                               isAnimated: image.animation != nil)
        let quality = path.options.quality.map { Double($0) / 100 } ?? 0.8
        let bytes: Data
        do {
            bytes = try ImageCodec().encode(image, options: EncodingOptions(format: format, quality: quality))
        } catch {
            return Answers.text(.internalServerError, "could not encode the image: \(error)")
        }
        let etag = "\"\(Answers.fingerprint(bytes))\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=\(maxAge)"]
        if path.options.format == nil { headers[.vary] = "Accept" }
        if request.headers[.ifNoneMatch].map({ $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(etag) }) == true {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = format.mimeType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A source the policy keeps out: counted, logged with the source, answered with the reason.
    func refused(_ source: URL, _ reason: SourceRefusal) -> Response {
        metrics.refusedSource(reason)
        logger.notice("refused a source", metadata: ["source": "\(source.absoluteString)", "reason": "\(reason.rawValue)"])
        return Answers.refused(reason)
    }

    /// The pipeline request an imgproxy URL asks for. A side of 0 follows from the other;
    /// `auto` fills when both sides are given.
    static func imageRequest(for path: ImgproxyPath) -> ImageRequest {
        let options = path.options
        let unbounded = 1 << 30
        let size: PixelSize? = switch (options.width, options.height) {
        case (0, 0): nil
        case (let w, 0): PixelSize(width: w, height: unbounded)
        case (0, let h): PixelSize(width: unbounded, height: h)
        case (let w, let h): PixelSize(width: w, height: h)
        }
        let fills = options.resizingType != .fit && options.width > 0 && options.height > 0
        var processors: [any ImageProcessing] = []
        if let sigma = options.blur { processors.append(.blur(radius: max(1, Int(sigma.rounded())))) }
        var request = ImageRequest(url: path.source, targetSize: size, contentMode: fills ? .fill : .fit, processors: processors)
        request.gravity = options.gravity
        return request
    }

}
