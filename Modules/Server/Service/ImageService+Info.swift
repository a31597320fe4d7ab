import Foundation
import HTTPTypes
import OspreyCodec
import OspreyDomain
import OspreyPixels

extension ImageService {
    /// The JSON `request` asks for (imgproxy Pro's `/info`): from the source's header what
    /// needs no pixels (format, dimensions, alpha, frames; the size from the bytes), and from the
    /// pipeline's preview at 100 × 100 (an embedded thumbnail, a progressive JPEG's first scans,
    /// a kept reduction, else a reduced decode) the colours, a BlurHash and a ThumbHash.
    /// - Throws: ``ServerError``; a timeout when the deadline passes.
    package func info(_ request: ImgproxyInfoRequest) async throws(ServerError) -> ImageAnswer {
        activity.begin()
        defer { activity.end() }
        return try await Deadline.run(within: configuration.timeout) { () async throws(ServerError) -> ImageAnswer in
            try await self.madeInfo(request)
        }
    }

    private func madeInfo(_ request: ImgproxyInfoRequest) async throws(ServerError) -> ImageAnswer {
        let options = request.options
        var resolved = try resolve(request.source)
        resolved.headers = request.sourceHeaders
        let source = try await sourceData(resolved)
        let header: ImageInfo
        do {
            header = try codec.info(.data(source.data))
        } catch {
            throw ServerError(ImagePipeline.Error.decodingFailed(error))
        }
        var answer: [String: Any] = [:]
        if options.size { answer["size"] = source.data.count }
        if options.format {
            answer["format"] = header.format.rawValue
            answer["mime_type"] = header.format.mediaType
        }
        if options.dimensions {
            answer["width"] = header.width
            answer["height"] = header.height
            answer["orientation"] = header.orientation
        }
        if options.alpha { answer["alpha"] = header.hasAlpha }
        if options.pagesNumber { answer["pages_number"] = header.frameCount }
        let metadata = options.exif || options.iptc ? (try? codec.metadata(.data(source.data))) ?? nil : nil
        if options.exif, let exif = metadata?.exif {
            let fields = ExifFields.fields(of: exif, canonicalNames: options.exifCanonicalNames)
            if !fields.isEmpty { answer["exif"] = fields }
        }
        if options.iptc, let iptc = metadata?.iptc {
            let fields = IPTCFields.fields(of: iptc)
            if !fields.isEmpty {
                answer["iptc"] = Dictionary(fields.map { ($0.title, $0.repeatable ? $0.values as Any : $0.values[0] as Any) }) { $1 }
            }
        }
        if options.needsPixels {
            var small = resolved.imageRequest
            small.options.insert(.disableMemoryCacheWrites)
            let placeholder: ImagePlaceholder, image: Image
            do {
                image = try await pipeline.previewImage(for: small, fitting: PixelSize(width: 100, height: 100), from: source)
                placeholder = ImagePlaceholder(image, blurHashComponents: options.blurHash ?? (4, 3))
            } catch {
                throw ServerError(error)
            }
            if options.average {
                let average = options.averageIgnoresTransparent ? placeholder.average : ImagePlaceholder.average(of: image, ignoringTransparent: false)
                answer["average"] = ["R": average.red, "G": average.green, "B": average.blue, "A": average.alpha]
            }
            if options.blurHash != nil { answer["blurhash"] = placeholder.blurHash }
            func channels(_ color: ImagePlaceholder.Color, alpha: Bool = true) -> [String: UInt8] {
                ["R": color.red, "G": color.green, "B": color.blue].merging(alpha ? ["A": color.alpha] : [:]) { $1 }
            }
            if let colors = options.palette, let palette = ImagePalette(image, maxColors: colors) {
                answer["palette"] = palette.swatches.map { channels($0.color) }
            }
            if options.dominantColors, let palette = ImagePalette(image, maxColors: 64) {
                answer["dominant_colors"] = palette.dominantColors.mapValues { channels($0, alpha: false) }
            }
            if options.thumbHash {
                answer["thumb_hash"] = placeholder.thumbHash.map { String(format: "%02X", $0) }.joined()
                answer["thumbhash"] = placeholder.thumbHash.base64EncodedString()
            }
        }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
        } catch {
            throw ServerError(error)
        }
        let tag = EntityTag(ContentDigest.hex(body))
        var headers: HTTPFields = [.contentType: "application/json",
                                   .cacheControl: cacheControl(expires: options.expires, fallback: false, freshUntil: source.metadata.freshUntil,
                                                               personal: !resolved.headers.isEmpty)]
        if configuration.usesETags { headers[.eTag] = tag.header }
        return ImageAnswer(status: .ok, headers: headers, body: body,
                           validators: ImageAnswer.Validators(tag: configuration.usesETags ? tag : nil, lastModified: nil),
                           budget: pipeline.configuration.memoryBudget)
    }
}
