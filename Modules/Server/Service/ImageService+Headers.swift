import Foundation
import HTTPTypes
import Metrics
import Osprey

extension ImageService {
    /// `encoded` as answered, with its validators; `Server-Timing` names the tier that
    /// answered (or the fallback) and the time taken.
    func answer(with encoded: EncodedImage, to request: ImgproxyRequest, lastModified: String?, sourceFacts: SourceFacts?,
                timing: Duration, status: HTTPResponse.Status = .ok, fallback: Bool = false) -> ImageAnswer {
        let path = request.path
        let tier = fallback ? "fallback" : encoded.keptIn.map { "answer-" + $0.rawValue } ?? encoded.imageTier?.rawValue ?? "encoded"
        var headers: HTTPFields = [.cacheControl: cacheControl(expires: path.options.expires, fallback: fallback, freshUntil: encoded.source?.freshUntil,
                                                                personal: !fallback && !request.sourceHeaders.isEmpty)]
        headers[.init("Server-Timing")!] = "\(tier);dur=\(String(format: "%.1f", timing / .milliseconds(1)))"
        headers[.contentDisposition] = ContentDisposition.header(for: path, format: encoded.format,
                                                                 attachment: path.options.returnsAttachment ?? configuration.returnsAttachment)
        let tag = configuration.usesETags && status == .ok ? encoded.entityTag : nil
        let lastModified = configuration.usesLastModified ? lastModified : nil
        if let tag { headers[.eTag] = tag }
        if let lastModified { headers[.lastModified] = lastModified }
        if let vary = vary(accept: request.choice.varies) { headers[.vary] = vary }
        if configuration.setsCanonicalHeader, ["http", "https"].contains(path.source.scheme?.lowercased() ?? "") {
            headers[HTTPField.Name("Link")!] = "<\(path.source.absoluteString)>; rel=\"canonical\""
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
        headers[.contentType] = encoded.format.mediaType
        // A fallback's answer is not the URL's: a client's validators never match it.
        let validators = status == .ok && !fallback ? ImageAnswer.Validators(tag: tag.flatMap(EntityTag.init(header:)), lastModified: lastModified) : nil
        return ImageAnswer(status: status, headers: headers, body: encoded.data, validators: validators, budget: pipeline.configuration.memoryBudget)
    }

    /// A source's `Last-Modified` as answered: the buster's time when it is older
    /// (``Configuration/lastModifiedBuster``), as imgproxy does; an unreadable one is not passed on.
    func busted(_ lastModified: String?) -> String? {
        guard let buster = configuration.lastModifiedBuster, let lastModified else { return lastModified }
        guard let date = HTTPDate.date(from: lastModified) else { return nil }
        return date < buster ? HTTPDate.string(from: buster) : lastModified
    }

    /// The request headers an answer depends on: `Accept` when it `varies` with it, and the
    /// client hints where the server takes them.
    func vary(accept varies: Bool) -> String? {
        let names = (varies ? ["Accept"] : []) + (configuration.usesClientHints ? ["Sec-CH-DPR", "DPR", "Sec-CH-Width", "Width"] : [])
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// imgproxy's `Cache-Control`: the server's max-age, or the fallback image's, or the
    /// source's freshness when passed through; cut short by the URL's expiry; `no-cache` at 0.
    /// A `personal` answer, made with the client's cookies, is `private`: no shared cache keeps it.
    func cacheControl(expires: Date?, fallback: Bool, freshUntil: Date?, personal: Bool = false) -> String {
        let now = pipeline.configuration.clock.now
        var ttl: Int? = fallback ? configuration.fallbackMaxAge.flatMap { $0 > 0 ? $0 : nil } : nil
        if let expires, ttl.map({ expires < now.addingTimeInterval(TimeInterval($0)) }) ?? true {
            ttl = min(configuration.maxAge, max(0, Int(expires.timeIntervalSince(now).rounded(.up))))
        }
        // Rounded up: the answer is made moments after the source's freshness was read.
        if ttl == nil, configuration.passesCacheControl, let freshUntil { ttl = max(0, Int(freshUntil.timeIntervalSince(now).rounded(.up))) }
        let maxAge = ttl ?? configuration.maxAge
        return maxAge > 0 ? "max-age=\(maxAge), \(personal ? "private" : "public")" : "no-cache"
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
}
