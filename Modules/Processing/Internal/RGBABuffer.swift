import OspreyDomain
import OspreyPixels

/// Straight RGBA pixels, tightly packed, for processors that work channel by channel.
struct RGBABuffer {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(_ image: Image) {
        width = image.width
        height = image.height
        pixels = PixelConversion.converted(image, to: .rgba8).pixels
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    var image: Image { try! Image(width: width, height: height, pixelFormat: .rgba8, pixels: pixels) }

    /// The image in the input's family of formats: RGBA when it had alpha or `keepAlpha`,
    /// RGB otherwise (gray input comes back as RGB, since colour may have been added).
    func image(like original: Image, keepAlpha: Bool = false) -> Image {
        original.pixelFormat.hasAlpha || keepAlpha ? image : PixelConversion.converted(image, to: .rgb8)
    }
}

/// Rec. 601 luma of an RGB triple, rounded.
@inline(__always)
func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
    (Int(r) * 299 + Int(g) * 587 + Int(b) * 114 + 500) / 1000
}
