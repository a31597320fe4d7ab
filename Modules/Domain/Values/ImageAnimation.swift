/// The frames of an animated image, each at the size it was decoded at, with how long it
/// shows and how often the animation plays.
///
/// An ``Image`` that is animated carries one of these in ``Image/animation``; the image's
/// own pixels are the first frame, so code that knows nothing of animation shows a still.
public struct ImageAnimation: Hashable, Sendable {
    /// One frame: the whole canvas as it is shown, after disposal and blending.
    public struct Frame: Hashable, Sendable {
        /// The frame's pixels, the same size as every other frame.
        public var image: Image
        /// How long the frame shows.
        public var duration: Duration

        /// Creates a frame.
        public init(image: Image, duration: Duration) {
            self.image = image
            self.duration = duration
        }
    }

    /// The frames in order; never empty.
    public var frames: [Frame]
    /// How many times the animation plays; `0` plays it forever.
    public var loopCount: Int

    /// Creates an animation.
    public init(frames: [Frame], loopCount: Int) {
        precondition(!frames.isEmpty, "an animation has at least one frame")
        self.frames = frames
        self.loopCount = loopCount
    }

    /// The time one play takes.
    public var totalDuration: Duration { frames.reduce(.zero) { $0 + $1.duration } }

    /// The animation with `transform` applied to every frame's image.
    public func mapFrames<E: Error>(_ transform: (Image) throws(E) -> Image) throws(E) -> ImageAnimation {
        var copy = self
        for index in copy.frames.indices { copy.frames[index].image = try transform(copy.frames[index].image) }
        return copy
    }
}
