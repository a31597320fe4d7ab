import Foundation
import HTTPTypes
import OspreyDomain

/// What a client asks, read before anything is fetched and with no effects: the server's
/// secret checked, the path's signature verified before anything else in it is read, the path
/// parsed over the client's hints, the answer's format chosen by the URL and `Accept`, and how
/// the answer is encoded.
package struct ImgproxyRequest: Sendable {
    /// The path as parsed: its options and source.
    package let path: ImgproxyPath
    /// How the format is chosen, and whether the answer varies with `Accept`.
    let choice: AnswerChoice
    package let encoding: OutputEncoding
    /// Sent with the source's request: the client's cookies the server passes through.
    package let sourceHeaders: [String: String]

    /// `path` (past the mount point: `/{signature}/{options…}/{source}`) and `headers` read by
    /// `service`'s rules, at its clock's time.
    /// - Throws: the ``ServerError`` the request is answered with.
    /// `authority` is the request's `Host`, the cookies' scope when passed through.
    package init(path: String, headers: HTTPFields, authority: String? = nil, service: ImageService) throws(ServerError) {
        let configuration = service.configuration
        try ImgproxyRequest.checkSecret(headers, configuration: configuration)
        self.path = try Self.verified(path, hints: headers, configuration: configuration, now: service.pipeline.configuration.clock.now)
        let options = self.path.options
        // SVG is answered only as an SVG source passed through (`unprocessed`), never encoded.
        if let named = options.format, named != .svg, !service.negotiation.written.contains(named) {
            throw ServerError(.unwritableFormat, "no encoder writes \(named)")
        }
        choice = service.negotiation.choice(named: options.format, accept: headers[.accept])
        encoding = options.encoding(choice.format, defaultQuality: configuration.defaultQuality, serverQualities: configuration.formatQualities)
        let cookie = configuration.cookiePassthrough.cookie(for: self.path.source, headers: headers, authority: authority)
        sourceHeaders = cookie.map { ["Cookie": $0] } ?? [:]
    }

    /// `path` with its signature checked (or unsigned URLs allowed) before anything else in
    /// it is read, then parsed over the client hints in `hints` (when the server takes them),
    /// and its expiry.
    static func verified(_ path: String, hints: HTTPFields, configuration: ImageService.Configuration, now: Date) throws(ServerError) -> ImgproxyPath {
        do throws(ImgproxyError) {
            let signed = try checkedSignature(path, configuration: configuration)
            let parsed = try ImgproxyPath(signed, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
                                          baseURL: configuration.baseURL, rules: configuration.urlRules,
                                          defaults: defaultOptions(hints: hints, configuration: configuration))
            if let expires = parsed.options.expires, expires <= now { throw ImgproxyError.expired }
            return parsed
        } catch {
            throw ServerError(error)
        }
    }

    /// Refuses a request without the server's secret (`Authorization: Bearer …`), compared in
    /// constant time, when one is set.
    static func checkSecret(_ headers: HTTPFields, configuration: ImageService.Configuration) throws(ServerError) {
        if let secret = configuration.secret, !ConstantTime.equal(headers[.authorization] ?? "", "Bearer \(secret)") {
            throw ServerError(.forbidden, "the request does not carry the server's secret")
        }
    }

    /// `path` split at its signature, the signature checked (or unsigned URLs allowed), before
    /// anything else in the path is read: image and info URLs alike.
    static func checkedSignature(_ path: String, configuration: ImageService.Configuration) throws(ImgproxyError) -> ImgproxyPath.Signed {
        let signed = try ImgproxyPath.Signed(path)
        if signed.isUnsigned {
            // A configured key means every URL is signed, whatever else is set.
            guard configuration.allowsUnsigned, configuration.signingKeys.pairs.isEmpty else { throw ImgproxyError.unsigned }
        } else if !configuration.signingKeys.pairs.isEmpty, !configuration.trustedSignatures.contains(signed.signature),
                  !configuration.signingKeys.verify(signed.signature, path: signed.signedPart) {
            throw ImgproxyError.badSignature
        }
        return signed
    }

    /// The options the server's settings and a client's hints give before the URL's: the
    /// colour profile kept or not, EXIF orientation applied or not, metadata kept or not, and, where the server takes
    /// client hints, `Sec-CH-DPR` or `DPR` the ratio, `Sec-CH-Width` or `Width` the width in
    /// device pixels.
    static func defaultOptions(hints headers: HTTPFields, configuration: ImageService.Configuration) -> ImgproxyOptions {
        var options = ImgproxyOptions()
        options.keepsColorProfile = configuration.keepsColorProfiles
        options.autoRotates = configuration.autoRotates
        options.stripsMetadata = configuration.stripsMetadata
        options.keepsCopyright = configuration.keepsCopyright
        options.preservesHighBitDepth = configuration.preservesHighBitDepth
        options.serverMaxResultDimension = configuration.maxResultDimension
        guard configuration.usesClientHints else { return options }
        let header = { (names: [String]) in names.lazy.compactMap { HTTPField.Name($0).flatMap { headers[$0] } }.first }
        if let dpr = ClientNumber.hint(header(["Sec-CH-DPR", "DPR"]), in: 1e-6...8.0) { options.dpr = dpr }
        if let width = ClientNumber.hint(header(["Sec-CH-Width", "Width"]), in: 1...Int.max) {
            options.width = min(ClientNumber.maxSide, PixelSize.length(Double(width) / options.dpr))
        }
        return options
    }
}
