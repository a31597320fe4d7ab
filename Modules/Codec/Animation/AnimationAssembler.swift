import OspreyDomain
import OspreyPixels

/// Collects an animation's frames at the output size as they are composed: each full canvas
/// is reduced the moment it is drawn, so memory holds one canvas and the output frames.
struct AnimationAssembler {
    let canvasSize: PixelSize
    let outputSize: PixelSize
    private(set) var frames: [ImageAnimation.Frame] = []

    init(canvasSize: PixelSize, outputSize: PixelSize) {
        self.canvasSize = canvasSize
        self.outputSize = outputSize
    }

    /// Reduces the straight-RGBA canvas to the output size and keeps it as the next frame.
    mutating func add(canvas: UnsafePointer<UInt8>, milliseconds: Int) {
        frames.append(ImageAnimation.Frame(image: Self.reduce(canvas, from: canvasSize, to: outputSize),
                                           duration: Self.displayDuration(milliseconds: milliseconds)))
    }

    /// The animation, or a still when it has one frame.
    func finish(loopCount: Int) -> Image {
        frames.count == 1 ? frames[0].image : Image(animation: ImageAnimation(frames: frames, loopCount: loopCount))
    }

    /// A straight-RGBA canvas reduced to `output`.
    static func reduce(_ canvas: UnsafePointer<UInt8>, from size: PixelSize, to output: PixelSize) -> Image {
        var sink = Downsampler(sourceSize: size, outputSize: output, pixelFormat: .rgba8)
        sink.consume(canvas, count: size.height, stride: size.width * 4)
        return sink.finish()
    }

    /// How long a frame shows: delays of 10 ms and less play as 100 ms, as browsers do,
    /// because files that ask for them mean "as fast as possible", which no viewer honours.
    static func displayDuration(milliseconds: Int) -> Duration {
        .milliseconds(milliseconds <= 10 ? 100 : milliseconds)
    }
}
