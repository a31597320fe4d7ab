import OspreyCodec
import OspreyDomain

/// How every image of a conversion is decoded and encoded.
struct ConvertSettings: Sendable {
    var mode: ContentMode
    var quality: Double
    var firstFrame: Bool
    var keepProfile: Bool
    var lossless: Bool = false

    /// All frames when the output's encoder keeps an animation (WebP, JPEG XL), else the first.
    func frames(for format: ImageFormat, codec: ImageCodec) -> FrameSelection {
        codec.encoders[format]?.capabilities(for: format)?.animation == true && !firstFrame ? .all : .first
    }

    var colorHandling: ColorHandling { keepProfile ? .preserve : .convertToSRGB }
}
