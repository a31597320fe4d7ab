import Foundation
import OspreyDomain

/// A request path in imgproxy's format, parsed:
/// `/{signature}/{options…}/{base64url source}[.{extension}]` or
/// `/{signature}/{options…}/plain/{percent-encoded source}[@{extension}]`.
package struct ImgproxyPath: Sendable {
    /// A path's signature and what it covers, split off before anything else in the path is
    /// read: the service checks the signature on these, then parses (imgproxy's order).
    package struct Signed: Sendable {
        package let signature: String
        /// What the signature covers: the path from the slash after the signature, repaired.
        package let signedPart: String

        /// `path` as received (percent-encoding kept), repaired as imgproxy repairs it.
        package init(_ path: String) throws(ImgproxyError) {
            // Split on the character `/` itself, not on grapheme clusters: a combining mark after
            // a slash must not hide it.
            let path = ImgproxyPath.repaired(path).unicodeScalars
            let trimmed = path.first == "/" ? path.dropFirst() : path[...]
            guard let slash = trimmed.firstIndex(of: "/") else { throw .malformed("no source") }
            signature = String(trimmed[..<slash])
            signedPart = String(trimmed[slash...])
        }

        /// `insecure` and `_` stand for no signature.
        package var isUnsigned: Bool { signature == "insecure" || signature == "_" }
    }

    package let signature: String
    /// What the signature covers: the path from the slash after the signature.
    package let signedPart: String
    package let options: ImgproxyOptions
    package let source: URL

    /// Parses `path` (as received, percent-encoding kept) over `defaults`, as the initialiser
    /// from a ``Signed`` path does.
    package init(_ path: String, presets: ImgproxyPresets = .none, onlyPresets: Bool = false, baseURL: String? = nil,
                 rules: ImgproxyURLRules = ImgproxyURLRules(), defaults: ImgproxyOptions = ImgproxyOptions()) throws(ImgproxyError) {
        try self.init(try Signed(path), presets: presets, onlyPresets: onlyPresets, baseURL: baseURL, rules: rules, defaults: defaults)
    }

    /// Parses the options and source of `signed` over `defaults` (what the client's hints
    /// say). The `default` preset applies first; with `onlyPresets`, the first segment
    /// names presets (`a:b`) and nothing else may stand before the source, as imgproxy's
    /// presets-only mode reads URLs. A source not starting with `baseURL` is taken as relative
    /// to it, after `rules`' replacements.
    package init(_ signed: Signed, presets: ImgproxyPresets = .none, onlyPresets: Bool = false, baseURL: String? = nil,
                 rules: ImgproxyURLRules = ImgproxyURLRules(), defaults: ImgproxyOptions = ImgproxyOptions()) throws(ImgproxyError) {
        signature = signed.signature
        signedPart = signed.signedPart
        let segments = signedPart.unicodeScalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { Substring($0) }
        var options = defaults
        try presets.applyDefault(to: &options)
        var index = 0
        if onlyPresets {
            guard segments.count > 1 else { throw .malformed("no source") }
            try presets.apply(segments[0].components(separatedBy: rules.argumentsSeparator), to: &options)
            index = 1
        } else {
            while index < segments.count, segments[index] != "plain", segments[index].contains(rules.argumentsSeparator) {
                try options.apply(segments[index], presets: presets, rules: rules)
                index += 1
            }
        }
        guard index < segments.count else { throw .malformed("no source") }
        var sourceText: String
        if segments[index] == "plain" {
            var plain = segments[(index + 1)...].joined(separator: "/")
            if let at = plain.lastIndex(of: "@") {
                options.format = try ImgproxyOptions.format(String(plain[plain.index(after: at)...]))
                plain = String(plain[..<at])
            }
            guard let decoded = plain.removingPercentEncoding else { throw .malformed("bad percent-encoding") }
            sourceText = decoded
        } else {
            var encoded = (rules.base64IncludesFilename && segments.count - index > 1 ? segments[index..<(segments.count - 1)] : segments[index...]).joined()
            if let dot = encoded.lastIndex(of: ".") {
                options.format = try ImgproxyOptions.format(String(encoded[encoded.index(after: dot)...]))
                encoded = String(encoded[..<dot])
            }
            guard let decoded = Self.base64URLDecoded(encoded) else { throw .malformed("the source is not base64url") }
            sourceText = decoded
        }
        sourceText = rules.replacingPrefix(of: sourceText)
        if let baseURL, !baseURL.isEmpty, !sourceText.hasPrefix(baseURL) { sourceText = baseURL + sourceText }
        guard let url = URL(string: sourceText), let scheme = url.scheme, url.host?.isEmpty == false || scheme == "local" else {
            throw .malformed("the source is not an absolute URL")
        }
        self.options = options
        source = url
    }

    /// `path` as proxies and CDNs should have left it, repaired as imgproxy repairs it before
    /// checking the signature: `%3A` back to `:` in the options, and a plain source's
    /// `scheme:/host` (a slash merged away) back to `scheme://host` (`local:///` for files).
    static func repaired(_ path: String) -> String {
        guard let plain = path.range(of: "/plain/") else { return path.replacingOccurrences(of: "%3A", with: ":") }
        let options = path[..<plain.lowerBound].replacingOccurrences(of: "%3A", with: ":")
        return options + "/plain/" + withSlashRestored(path[plain.upperBound...])
    }

    /// A plain source with the slash a proxy merged away put back, matched as imgproxy's
    /// `^(\S+):/([^/])` matches (the last such `:/` before any white space), without a regex:
    /// a regex literal is parsed again each time it is evaluated, on every request.
    package static func withSlashRestored(_ source: Substring) -> String {
        let bytes = source.utf8
        // Go's `\s`: tab, newline, form feed, carriage return, space.
        let end = bytes.firstIndex { [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) } ?? bytes.endIndex
        var colon = bytes.startIndex
        var found: String.Index?
        while colon < end, let next = bytes[colon..<end].firstIndex(of: UInt8(ascii: ":")) {
            let slash = bytes.index(after: next)
            if next > bytes.startIndex, slash < bytes.endIndex, bytes[slash] == UInt8(ascii: "/"),
               bytes.index(after: slash) < bytes.endIndex, bytes[bytes.index(after: slash)] != UInt8(ascii: "/") {
                found = next
            }
            colon = slash
        }
        guard let found else { return String(source) }
        let scheme = source[..<found]
        return scheme + (scheme == "local" ? ":///" : "://") + source[source.utf8.index(found, offsetBy: 2)...]
    }

    /// `insecure` and `_` stand for no signature.
    package var isUnsigned: Bool { signature == "insecure" || signature == "_" }

    static func base64URLDecoded(_ text: String) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) }
    }
}
