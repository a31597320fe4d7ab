import OspreyDomain

/// How every image of a conversion is decoded and encoded.
struct ConvertSettings: Sendable {
    var mode: ContentMode
    var quality: Double
    var firstFrame: Bool
    var keepProfile: Bool

    /// All frames when the output keeps an animation (WebP), else the first.
    func frames(for format: ImageFormat) -> FrameSelection { format == .webp && !firstFrame ? .all : .first }

    var colorHandling: ColorHandling { keepProfile ? .preserve : .convertToSRGB }
}
