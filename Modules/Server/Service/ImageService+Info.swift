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
        if !options.security.isEmpty, !configuration.allowsSecurityOptions {
            throw ServerError(ImgproxyError.securityOption("the server does not allow them"))
        }
        var resolved = try resolve(request.source)
        resolved.headers = request.sourceHeaders
        let key = infoKey(resolved.imageRequest, options)
        if let kept = await keptInfo(key) {
            return infoAnswer(kept.data, options: options, freshUntil: kept.metadata.freshUntil, personal: !resolved.headers.isEmpty)
        }
        let source = try await sourceData(resolved)
        let header: ImageInfo
        do {
            header = try codec.info(.data(source.data))
        } catch {
            throw ServerError(ImagePipeline.Error.decodingFailed(error))
        }
        if let refusal = options.security.refusal(bytes: source.data.count, width: header.width, height: header.height, frames: header.frameCount) {
            throw ServerError(.tooLarge, refusal)
        }
        guard options.page < max(header.frameCount, 1) else {
            throw ServerError(.notAnImage, "page \(options.page) of an image of \(header.frameCount) page(s)")
        }
        var answer = headerFacts(options, header: header, bytes: source.data.count)
        answer.merge(metadataFacts(options, of: source.data)) { $1 }
        if options.needsPixels {
            var small = resolved.imageRequest
            small.options.insert(.disableMemoryCacheWrites)
            answer.merge(try await pixelFacts(options, of: small, source: source, header: header)) { $1 }
        }
        if let crop = options.crop, crop.gravity.anchor != .sm {
            answer["crop"] = Self.relativeWindow(crop, in: header, preview: nil)
        }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])
        } catch {
            throw ServerError(error)
        }
        await keepInfo(body, under: key, freshUntil: source.metadata.freshUntil)
        return infoAnswer(body, options: options, freshUntil: source.metadata.freshUntil, personal: !resolved.headers.isEmpty)
    }

    /// The JSON answered with its ETag and imgproxy's `Cache-Control`.
    private func infoAnswer(_ body: Data, options: ImgproxyInfoRequest.Options, freshUntil: Date?, personal: Bool) -> ImageAnswer {
        let tag = EntityTag(ContentDigest.hex(body))
        var headers: HTTPFields = [.contentType: "application/json",
                                   .cacheControl: cacheControl(expires: options.expires, fallback: false, freshUntil: freshUntil, personal: personal)]
        if configuration.usesETags { headers[.eTag] = tag.header }
        return ImageAnswer(status: .ok, headers: headers, body: body,
                           validators: ImageAnswer.Validators(tag: configuration.usesETags ? tag : nil, lastModified: nil),
                           budget: pipeline.configuration.memoryBudget)
    }

    /// What the header says: the size from the bytes, format, dimensions, alpha, frames.
    private func headerFacts(_ options: ImgproxyInfoRequest.Options, header: ImageInfo, bytes: Int) -> [String: Any] {
        var answer: [String: Any] = [:]
        if options.size { answer["size"] = bytes }
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
        return answer
    }

    /// The EXIF, IPTC and XMP fields asked for, read from the container.
    private func metadataFacts(_ options: ImgproxyInfoRequest.Options, of data: Data) -> [String: Any] {
        guard options.exif || options.iptc || options.xmp, let metadata = (try? codec.metadata(.data(data))) ?? nil else { return [:] }
        var answer: [String: Any] = [:]
        if options.exif, let exif = metadata.exif {
            let fields = ExifFields.fields(of: exif, canonicalNames: options.exifCanonicalNames)
            if !fields.isEmpty { answer["exif"] = fields }
        }
        if options.iptc, let iptc = metadata.iptc {
            let fields = IPTCFields.fields(of: iptc)
            if !fields.isEmpty {
                answer["iptc"] = Dictionary(fields.map { ($0.title, $0.repeatable ? $0.values as Any : $0.values[0] as Any) }) { $1 }
            }
        }
        if options.xmp, let xmp = metadata.xmp {
            let fields = XMPFields.fields(of: xmp)
            if !fields.isEmpty { answer["xmp"] = fields }
        }
        return answer
    }

    /// The colours, hashes and smart crop, from the pipeline's 100 px preview (of the page
    /// asked: an animation's other frames come from a decode of them all).
    private func pixelFacts(_ options: ImgproxyInfoRequest.Options, of small: ImageRequest, source: CachedData,
                            header: ImageInfo) async throws(ServerError) -> [String: Any] {
        let placeholder: ImagePlaceholder, image: Image
        do {
            let size = PixelSize(width: 100, height: 100)
            if options.page > 0 {
                var frames = small
                (frames.targetSize, frames.contentMode, frames.processors, frames.frames) = (size, .fit, [], .all)
                let decoded = try await pipeline.image(for: frames).image
                guard let animation = decoded.animation, options.page < animation.frames.count else {
                    throw ServerError(.notAnImage, "page \(options.page) was not decoded")
                }
                image = animation.frames[options.page].image
            } else {
                image = try await pipeline.previewImage(for: small, fitting: size, from: source)
            }
            placeholder = ImagePlaceholder(image, blurHashComponents: options.blurHash ?? (4, 3))
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(error)
        }
        var answer: [String: Any] = [:]
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
            answer["dominant_colors"] = palette.dominantColors(buildingMissed: options.buildsMissedColors).mapValues { channels($0, alpha: false) }
        }
        if options.thumbHash {
            answer["thumb_hash"] = placeholder.thumbHash.map { String(format: "%02X", $0) }.joined()
            answer["thumbhash"] = placeholder.thumbHash.base64EncodedString()
        }
        if let crop = options.crop, crop.gravity.anchor == .sm { answer["crop"] = Self.relativeWindow(crop, in: header, preview: image) }
        return answer
    }

    /// Where `crop`'s window lies, as fractions of the upright image: by its gravity, or for
    /// `sm` where the preview's attention (edges, skin, saturation) is.
    static func relativeWindow(_ crop: ImgproxyOptions.Crop, in header: ImageInfo, preview: Image?) -> [String: Double] {
        let whole = PixelSize(width: max(header.width, 1), height: max(header.height, 1))
        let window = crop.size(in: whole)
        var origin: (x: Double, y: Double)
        if let preview, crop.gravity.anchor == .sm, !preview.size.isEmpty {
            let scale = (x: Double(preview.width) / Double(whole.width), y: Double(preview.height) / Double(whole.height))
            let inner = PixelSize(width: max(1, Int((Double(window.width) * scale.x).rounded())),
                                  height: max(1, Int((Double(window.height) * scale.y).rounded())))
            let found = GravityCrop.origin(in: preview, size: inner, gravity: .attention)
            origin = (min(Double(found.x) / scale.x, Double(whole.width - window.width)),
                      min(Double(found.y) / scale.y, Double(whole.height - window.height)))
        } else {
            let found = crop.gravity.origin(outer: whole, inner: window, scale: 1)
            origin = (Double(found.x), Double(found.y))
        }
        return ["left": origin.x / Double(whole.width), "top": origin.y / Double(whole.height),
                "width": Double(window.width) / Double(whole.width), "height": Double(window.height) / Double(whole.height)]
    }
}
