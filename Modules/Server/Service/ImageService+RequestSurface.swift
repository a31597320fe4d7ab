import Foundation
import HTTPTypes
import OspreyDomain

/// What the service makes of a client's request before it fetches anything, for the fuzz
/// targets of the request surface (`Fuzz/`): the same steps `answer` takes, without the fetch.
@_spi(Fuzzing)
extension ImageService {
    /// A request as read: the pipeline request it makes, how its answer is encoded, where
    /// its source is read from, and whether its conditional headers hold for an answer tagged
    /// `"x"` last modified at the Unix epoch.
    public struct ReadRequest: Sendable {
        public let request: ImageRequest
        public let encoding: OutputEncoding
        public let source: ImageSource
        public let notModified: Bool
    }

    /// `path` and `headers` read as `answer` reads them — the signature verified, the options
    /// and hints parsed, the format negotiated, the source resolved against the policy, the
    /// local root and the buckets — up to the fetch.
    /// - Throws: the ``ServerError`` the request would be answered with.
    public func readRequest(path: String, headers: [(name: String, value: String)]) throws(ServerError) -> ReadRequest {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let field = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: field, value: value))
        }
        let asked = try ImgproxyRequest(path: path, headers: fields, service: self)
        let (parsed, encoding) = (asked.path, asked.encoding)
        let resolved = try resolve(parsed.source)
        let request = parsed.options.imageRequest(source: resolved.source, watermark: watermark, animates: true)
        let notModified = Conditions(fields).areMet(tag: EntityTag(header: "\"x\""), lastModified: HTTPDate.string(from: Date(timeIntervalSince1970: 0)))
        return ReadRequest(request: request, encoding: encoding, source: resolved.source, notModified: notModified)
    }

    /// An `/info` path (what follows `/info`) read as `info` reads it, up to the fetch: the
    /// signature, the info options and presets, the source resolved; what it would be fetched
    /// from, and the key its answer is kept under.
    /// - Throws: the ``ServerError`` the request would be answered with.
    public func readInfoRequest(path: String) throws(ServerError) -> (source: ImageSource, key: CacheKey) {
        let asked = try ImgproxyInfoRequest(path: path, headers: [:], service: self)
        let resolved = try resolve(asked.source)
        return (resolved.source, infoKey(resolved.imageRequest, asked.options))
    }
}
