import Foundation

/// Named sets of processing options, as imgproxy's presets: `thumb=rs:fill:64:64/q:70`. A URL
/// applies them with `pr:thumb`; a preset named `default` applies to every URL before its own
/// options; a preset may name others, and one already being applied is passed over, as
/// imgproxy passes over a loop.
public struct ImgproxyPresets: Hashable, Sendable {
    let named: [String: [Substring]]

    /// No presets.
    public static let none = ImgproxyPresets(named: [:])

    private init(named: [String: [Substring]]) {
        self.named = named
    }

    /// Presets from definitions `NAME=OPTIONS`, `OPTIONS` as in a URL; each is checked now, so
    /// a server refuses to start with a preset no URL could use.
    public init(definitions: [String]) throws(ImgproxyError) {
        try self.init(definitions: definitions, of: ImgproxyOptions.self)
    }

    /// Presets of `Options` (a URL's processing options, or `/info`'s), each checked now.
    package init<Options: ImgproxyPresetOptions>(definitions: [String], of type: Options.Type) throws(ImgproxyError) {
        var named: [String: [Substring]] = [:]
        for definition in definitions {
            guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
                throw .malformed("a preset is NAME=OPTIONS: \(definition)")
            }
            let options = definition[definition.index(after: equals)...]
            guard !options.trimmingCharacters(in: .whitespaces).isEmpty else { throw .malformed("the preset \(definition[..<equals]) is empty") }
            named[String(definition[..<equals])] = options.split(separator: "/").filter { !$0.isEmpty }
        }
        self.init(named: named)
        for name in named.keys {
            var scratch = Options()
            try apply([name], to: &scratch)
        }
    }

    /// The names defined.
    public var names: [String] { named.keys.sorted() }

    func applyDefault<Options: ImgproxyPresetOptions>(to options: inout Options) throws(ImgproxyError) {
        if named["default"] != nil { try apply(["default"], to: &options) }
    }

    /// Applies the presets `names`, in order, to `options`.
    func apply<Options: ImgproxyPresetOptions>(_ names: [String], to options: inout Options) throws(ImgproxyError) {
        var using: Set<String> = []
        try apply(names, to: &options, using: &using)
    }

    private func apply<Options: ImgproxyPresetOptions>(_ names: [String], to options: inout Options, using: inout Set<String>) throws(ImgproxyError) {
        for name in names {
            guard let segments = named[name] else { throw .malformed("unknown preset \(name)") }
            guard using.insert(name).inserted else { continue }
            for segment in segments {
                let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
                if parts[0] == "pr" || parts[0] == "preset" {
                    try apply(parts.dropFirst().map(String.init), to: &options, using: &using)
                } else {
                    try options.apply(segment, presets: self, rules: ImgproxyURLRules())
                }
            }
            using.remove(name)
        }
    }
}
