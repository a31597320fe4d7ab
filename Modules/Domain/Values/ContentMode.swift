/// How an image is scaled to a target size.
public enum ContentMode: String, Hashable, Sendable, CaseIterable {
    /// The largest size inside the target that keeps the aspect ratio (the default).
    case fit
    /// The smallest size that covers the target and keeps the aspect ratio.
    case fill
}
