import Foundation
import HTTPTypes
import Metrics
import OspreyCodec
import OspreyDomain

/// What the service learnt of a source before processing it: for a URL's security options
/// and the debug headers.
struct SourceFacts {
    let bytes: Int
    let width: Int
    let height: Int
}

extension ImageService {
    /// The source's bytes as they are, for `raw`, or when the source's format is one the URL
    /// (`skp`) or the server skips and the URL names no other; an SVG source sanitised (raw
    /// too), when
    /// the URL names SVG or no format and the server does not always rasterise; `nil` to
    /// process it. The bytes come through the pipeline's shared, cached download, so a source
    /// it does not skip is not fetched again, and only bytes of an image format the server
    /// decodes are answered. An SVG is looked for where the URL names SVG or the source's path
    /// ends in `.svg`: other requests are not held up by a look at their source first.
    func unprocessed(_ resolved: ResolvedSource, request: ImgproxyPath) async throws(ServerError) -> ImageAnswer? {
        let options = request.options
        var skipped = options.skipProcessing.union(configuration.skipProcessingFormats)
        let namesSVG = options.format == .svg
        if namesSVG || (options.format == nil && !configuration.alwaysRasterizesSVG
                        && resolved.source.cacheIdentifier.lowercased().hasSuffix(".svg")) {
            skipped.insert(.svg)
        }
        guard options.raw || !skipped.isEmpty else { return nil }
        let source = try await sourceData(resolved)
        guard let format = source.metadata.format,
              options.raw || (skipped.contains(format) && (options.format == nil || options.format == format)) else { return nil }
        var body = source.data
        // Even `raw`: an SVG is a document a browser runs, and this server's origin is its.
        if format == .svg { body = try await sanitizedSVG(source.data) }
        var headers: HTTPFields = [.contentType: format.mediaType,
                                   .cacheControl: cacheControl(expires: options.expires, fallback: false, freshUntil: source.metadata.freshUntil,
                                                               personal: !resolved.headers.isEmpty)]
        if format == .svg { headers[.contentSecurityPolicy] = "script-src 'none'" }
        headers[.contentDisposition] = ContentDisposition.header(for: request, format: format,
                                                                 attachment: options.returnsAttachment ?? configuration.returnsAttachment)
        if configuration.usesETags { headers[.eTag] = "\"" + ContentDigest.hex(body) + "\"" }
        if configuration.usesLastModified, let lastModified = busted(resolved.lastModified ?? source.metadata.lastModified) {
            headers[.lastModified] = lastModified
        }
        return ImageAnswer(status: .ok, headers: headers, body: body, validators: nil, budget: pipeline.configuration.memoryBudget)
    }

    /// An SVG source as answered: sanitised on the pipeline's workers, once the memory budget
    /// has room for the sanitiser's stream (some three times the document), its embedded
    /// images bounded by the source limits.
    private func sanitizedSVG(_ data: Data) async throws(ServerError) -> Data {
        let limits = configuration.pipelineConfiguration.decodingLimits
        do {
            return try await pipeline.performOnWorkers(reserving: data.count.multipliedReportingOverflow(by: 3).partialValue) {
                try SVGSanitizer.sanitized(data, limits: limits).data
            }
        } catch let error as ImageDecodingError {
            throw ServerError(ImagePipeline.Error.decodingFailed(error))
        } catch {
            throw ServerError(error)
        }
    }

    /// The source's size and header, checked against the URL's security options, when those
    /// or the debug headers need them; `nil` otherwise (no fetch ahead of the pipeline's).
    func checkedSource(_ resolved: ResolvedSource, against limits: ImgproxySecurityOptions) async throws(ServerError) -> SourceFacts? {
        if !limits.isEmpty, !configuration.allowsSecurityOptions {
            throw ServerError(ImgproxyError.securityOption("the server does not allow them"))
        }
        guard !limits.isEmpty || configuration.debugHeaders else { return nil }
        let source = try await sourceData(resolved)
        let info: ImageInfo
        do {
            info = try codec.info(.data(source.data))
        } catch {
            throw ServerError(ImagePipeline.Error.decodingFailed(error))
        }
        if let refusal = limits.refusal(bytes: source.data.count, width: info.width, height: info.height, frames: info.frameCount) {
            throw ServerError(.tooLarge, refusal)
        }
        return SourceFacts(bytes: source.data.count, width: info.width, height: info.height)
    }

    /// The source's bytes, through the pipeline's shared, cached download.
    func sourceData(_ resolved: ResolvedSource) async throws(ServerError) -> CachedData {
        do {
            return try await pipeline.data(for: resolved.imageRequest)
        } catch {
            throw ServerError(error)
        }
    }
}
