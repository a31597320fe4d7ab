import Foundation
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
/// let app = Application(router: router, services: [service])  // closes its caches on shutdown
/// ```
public final class ImageService: Sendable {
    /// Where images come from, built from the configuration.
    public let pipeline: ImagePipeline
    /// The pipeline's codec: its decoders, encoders and limits, for what the service reads
    /// or checks itself.
    let codec: ImageCodec
    public let configuration: Configuration
    let negotiation: FormatNegotiation
    /// The watermark image and a digest of its pixels, which names it in cache keys.
    let watermark: (image: Image, name: String, opacity: Double)?
    /// The disk cache, closed when the server stops.
    let disk: DiskCache?
    /// The requests in the service now, for giving memory back when idle.
    let activity = RequestActivity()

    /// A service over a pipeline made from `configuration`.
    /// - Throws: ``ServerConfigurationError`` when settings contradict each other, a file or
    ///   the disk cache cannot be used, or no encoder writes a format answers may be in.
    public init(configuration: Configuration) throws(ServerConfigurationError) {
        try configuration.validate()
        let osprey = configuration.pipelineConfiguration
        let codec = osprey.codec
        self.codec = codec
        let watermark = try configuration.watermark.map { (source) throws(ServerConfigurationError) in try Self.decode(source, with: codec) }
        let parts: (pipeline: ImagePipeline, memory: MemoryCache?, disk: DiskCache?)
        do {
            parts = try osprey.makeParts()
        } catch {
            throw .unusable("the disk cache: \(error)")
        }
        pipeline = parts.pipeline
        disk = parts.disk
        self.configuration = configuration
        negotiation = FormatNegotiation(auto: configuration.autoFormats, enforced: configuration.enforcedFormats,
                                        preferred: configuration.preferredFormats, codec: codec,
                                        namedOnlyWhenOffered: configuration.formatsNamedOnlyWhenOffered)
        self.watermark = watermark.map { ($0, ContentDigest.hex($0.pixels), configuration.watermarkOpacity) }
    }

    /// The watermark: a file, or the bytes of a `data:` URL.
    private static func decode(_ source: ImageSource, with codec: ImageCodec) throws(ServerConfigurationError) -> Image {
        do {
            switch source {
            case .file(let path): return try codec.decode(.file(path: path), options: DecodingOptions())
            case .url(let url) where url.scheme?.lowercased() == "data":
                return try codec.decode(.data(try DataURLLoader.decode(url.absoluteString).data), options: DecodingOptions())
            case .url(let url): throw ServerConfigurationError.unusable("the watermark \(url.absoluteString): fetch it first (fetchingWatermark())")
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
}
