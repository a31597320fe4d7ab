import Foundation
import HTTPTypes
import OspreyDomain

/// What a client asks of `/info/%signature/%info_options/%source` (imgproxy Pro's image info,
/// `getting_info.mdx`): the signature checked before anything else is read, as for images;
/// then the info options (over the `default` info preset; preset names alone in presets-only
/// mode), then the source, read as an image URL's.
package struct ImgproxyInfoRequest: Sendable {
    package let options: Options
    package let source: URL
    /// Sent with the source's request: the client's cookies the server passes through.
    package let sourceHeaders: [String: String]

    package init(path: String, headers: HTTPFields, authority: String? = nil, service: ImageService) throws(ServerError) {
        let configuration = service.configuration
        try ImgproxyRequest.checkSecret(headers, configuration: configuration)
        do throws(ImgproxyError) {
            let signed = try ImgproxyRequest.checkedSignature(path, configuration: configuration)
            var rules = configuration.urlRules
            rules.allowedOptions = configuration.allowedInfoOptions
            var segments = signed.signedPart.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)[...]
            var options = Options()
            try configuration.infoPresets.applyDefault(to: &options)
            if configuration.infoOnlyPresets ?? configuration.onlyPresets {
                // Presets-only mode: one segment of preset names, then the source.
                guard segments.count > 1, let names = segments.first else { throw ImgproxyError.malformed("no source") }
                try configuration.infoPresets.apply(names.components(separatedBy: rules.argumentsSeparator), to: &options)
                segments = segments.dropFirst()
            } else {
                while let segment = segments.first, segment != "plain", segment.contains(rules.argumentsSeparator) {
                    try options.apply(Substring(segment), presets: configuration.infoPresets, rules: rules)
                    segments = segments.dropFirst()
                }
            }
            self.options = options
            // The rest is an image URL's source: read by the same parser, over no options.
            let parsed = try ImgproxyPath(ImgproxyPath.Signed("/_/" + segments.joined(separator: "/")), baseURL: configuration.baseURL,
                                          rules: configuration.urlRules)
            source = parsed.source
            if let expires = options.expires, expires <= service.pipeline.configuration.clock.now { throw ImgproxyError.expired }
        } catch {
            throw ServerError(error)
        }
        let cookie = configuration.cookiePassthrough.cookie(for: source, headers: headers, authority: authority)
        sourceHeaders = cookie.map { ["Cookie": $0] } ?? [:]
    }
}
