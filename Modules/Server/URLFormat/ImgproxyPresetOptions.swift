/// What a preset sets: a URL's processing options, or `/info`'s options.
package protocol ImgproxyPresetOptions {
    init()
    /// Applies one option, `name:arguments…`; `pr:a:b` applies presets.
    mutating func apply(_ segment: Substring, presets: ImgproxyPresets, rules: ImgproxyURLRules) throws(ImgproxyError)
}

extension ImgproxyOptions: ImgproxyPresetOptions {}
