import Foundation

extension ImageService {
    /// Who may ask for what, and how answers are made.
    public struct Configuration: Sendable {
        /// The pairs signatures are checked against; with none, only unsigned URLs are served.
        public var signingKeys: SigningKeys
        /// Accept `insecure` or `_` in place of a signature (imgproxy's default without keys).
        public var allowsUnsigned: Bool
        /// Which sources may be fetched. Give the pipeline's loader the same policy
        /// (``SourcePolicy/addressPolicy`` and ``SourcePolicy/refusal(for:)``), so that
        /// connections and redirects are checked too.
        public var sources: SourcePolicy
        /// Answer AVIF to clients that accept it (it costs more to encode).
        public var offersAVIF: Bool
        /// `Cache-Control: public, max-age=` of answers, in seconds.
        public var maxAge: Int
        /// The quality of lossy answers when the URL names none, 1…100.
        public var defaultQuality: Int
        /// Named sets of options URLs apply with `pr:NAME`; `default` applies to every URL.
        public var presets: ImgproxyPresets
        /// URLs name presets only (`/{signature}/{preset:preset…}/{source}`), as imgproxy's
        /// `IMGPROXY_ONLY_PRESETS`.
        public var onlyPresets: Bool
        /// The bytes of encoded answers kept in memory, so a repeated URL is sent as it was.
        public var answerMemoryLimit: Int
        /// Keep encoded answers in the pipeline's disk cache too, beside the originals, so
        /// that they and their validators outlive a restart.
        public var keepsAnswersOnDisk: Bool

        /// A configuration; every value has imgproxy's default.
        public init(signingKeys: SigningKeys = .none, allowsUnsigned: Bool = false, sources: SourcePolicy = SourcePolicy(),
                    offersAVIF: Bool = false, maxAge: Int = 31_536_000, defaultQuality: Int = 80,
                    answerMemoryLimit: Int = 16 << 20, keepsAnswersOnDisk: Bool = true,
                    presets: ImgproxyPresets = .none, onlyPresets: Bool = false) {
            self.signingKeys = signingKeys
            self.allowsUnsigned = allowsUnsigned
            self.sources = sources
            self.offersAVIF = offersAVIF
            self.maxAge = maxAge
            self.defaultQuality = defaultQuality
            self.answerMemoryLimit = answerMemoryLimit
            self.keepsAnswersOnDisk = keepsAnswersOnDisk
            self.presets = presets
            self.onlyPresets = onlyPresets
        }
    }
}
