import OspreyDomain
import OspreyPixels

/// Collects an animation's frames at the output size as they are composed: each full canvas
/// is reduced the moment it is drawn, so memory holds one canvas and the output frames.
///
/// Frames are kept as RGB while every frame so far is opaque (a quarter less memory, in the
/// cache too); the first frame with transparency turns them all to RGBA, so they share a layout.
struct AnimationAssembler {
    let canvasSize: PixelSize
    let outputSize: PixelSize
    private(set) var frames: [ImageAnimation.Frame] = []
    private var opaque = true

    init(canvasSize: PixelSize, outputSize: PixelSize) {
        self.canvasSize = canvasSize
        self.outputSize = outputSize
    }

    /// Reduces the straight-RGBA canvas to the output size and keeps it as the next frame.
    mutating func add(canvas: UnsafePointer<UInt8>, milliseconds: Int) {
        add(Self.reduce(canvas, from: canvasSize, to: outputSize), milliseconds: milliseconds)
    }

    /// Keeps a frame already at the output size (RGB or straight RGBA).
    mutating func add(_ frame: Image, milliseconds: Int) {
        var image = frame
        if !image.pixelFormat.hasAlpha {
            if !opaque { image = PixelConversion.converted(image, to: .rgba8) }
        } else if opaque, let rgb = Self.droppingOpaqueAlpha(image) {
            image = rgb
        } else if opaque {
            opaque = false
            for index in frames.indices { frames[index].image = PixelConversion.converted(frames[index].image, to: .rgba8) }
        }
        frames.append(ImageAnimation.Frame(image: image, duration: Self.displayDuration(milliseconds: milliseconds)))
    }

    /// The RGB of a tightly packed RGBA image, or `nil` when some pixel is not opaque.
    private static func droppingOpaqueAlpha(_ rgba: Image) -> Image? {
        let count = rgba.width * rgba.height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        let opaque = rgba.pixels.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<count {
                    guard src[i * 4 + 3] == 255 else { return false }
                    dst[i * 3] = src[i * 4]
                    dst[i * 3 + 1] = src[i * 4 + 1]
                    dst[i * 3 + 2] = src[i * 4 + 2]
                }
                return true
            }
        }
        return opaque ? try? Image(width: rgba.width, height: rgba.height, pixelFormat: .rgb8, pixels: rgb) : nil
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

    /// A file's frame duration in seconds as whole milliseconds, held to a day: a header's
    /// ticks can make any `Double`, and converting one past `Int` traps.
    static func milliseconds(seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((min(seconds, 86_400) * 1000).rounded())
    }
}
