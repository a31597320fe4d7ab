/// Which frames of an animated image a decoder returns.
public enum FrameSelection: Hashable, Sendable {
    /// The first frame only, as a still: costs what any still image costs.
    case first
    /// Every frame, each at the target size, within the decoder's frame and pixel limits.
    case all
}
