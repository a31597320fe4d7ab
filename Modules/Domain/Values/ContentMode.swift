/// How an image is scaled to a target size.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// The largest size inside the target that keeps the aspect ratio (the default).
    case fit
    /// Covers the target keeping the aspect ratio, then crops the centre: exactly the target
    /// size (`ImageCodec` and so the default pipeline crop; a decoder alone may return the
    /// covering size). Never larger than the original.
    case fill
}
