import Foundation

/// How a server reads its URLs beyond imgproxy's format, as imgproxy's URL settings say:
/// the arguments' separator, a file name after a base64 source, rewritten source prefixes,
/// and the options a URL may use.
public struct ImgproxyURLRules: Sendable, Hashable {
    /// `IMGPROXY_ARGUMENTS_SEPARATOR`: what separates an option's name and arguments (`:`).
    public var argumentsSeparator = ":"
    /// `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`: the last segment after a base64 source (or
    /// the last of its segments) is a file name for search engines, and is dropped.
    public var base64IncludesFilename = false
    /// `IMGPROXY_URL_REPLACEMENTS`, applied to the source in order, before the base URL.
    public var replacements: [Replacement] = []
    /// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`: the option names a URL may use, as written (a
    /// name and its alias are two names); empty: all. Another is refused as imgproxy refuses
    /// it, `404 Invalid URL`.
    public var allowedOptions: Set<String> = []

    public init() {}

    /// A source prefix and what replaces it: `*` in the pattern matches any run of characters
    /// but `/`, and `${N}` in the replacement is what the Nth `*` matched.
    public struct Replacement: Sendable, Hashable {
        public var pattern: String
        public var replacement: String

        public init(pattern: String, replacement: String) {
            self.pattern = pattern
            self.replacement = replacement
        }

        /// `source` with its prefix replaced when the pattern matches it; `nil` otherwise.
        func apply(to source: String) -> String? {
            let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
            guard let (end, captures) = Self.match(pieces, in: Substring(source)) else { return nil }
            var replaced = replacement
            for (index, capture) in captures.enumerated().reversed() {  // ${10} before ${1}
                replaced = replaced.replacingOccurrences(of: "${\(index + 1)}", with: capture)
            }
            return replaced + source[end...]
        }

        /// Where the prefix `pieces` (literals between stars) ends in `text`, and what each star
        /// took: the longest run without `/` that lets the rest match, as a regex's `[^/]*` does.
        private static func match(_ pieces: [String], in text: Substring) -> (String.Index, [String])? {
            guard text.hasPrefix(pieces[0]) else { return nil }
            let rest = text.dropFirst(pieces[0].count)
            guard pieces.count > 1 else { return (rest.startIndex, []) }
            let run = rest.prefix { $0 != "/" }
            var end = run.endIndex
            while true {
                if let (matched, captures) = match(Array(pieces.dropFirst()), in: rest[end...]) {
                    return (matched, [String(rest[..<end])] + captures)
                }
                if end == rest.startIndex { return nil }
                end = rest.index(before: end)
            }
        }
    }

    /// `IMGPROXY_URL_REPLACEMENTS`' text: `pattern=replacement` pairs divided by `;`.
    public static func replacements(_ text: String) -> [Replacement]? {
        var pairs: [Replacement] = []
        for item in text.split(separator: ";") where !item.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let equals = item.firstIndex(of: "=") else { return nil }
            pairs.append(Replacement(pattern: item[..<equals].trimmingCharacters(in: .whitespaces),
                                     replacement: item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
        }
        return pairs
    }

    /// `source` after the first replacement whose pattern matches, as imgproxy applies each
    /// anchored pattern in turn.
    func replacingPrefix(of source: String) -> String {
        var source = source
        for replacement in replacements {
            if let replaced = replacement.apply(to: source) { source = replaced }
        }
        return source
    }
}
