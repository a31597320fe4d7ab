import OspreyDomain
import OspreyPixels

/// The last step of every decoder: a `fill` decode covers the target, then the window its
/// gravity picks is cropped, so the result is exactly the target size. Every frame of an
/// animation is cropped at the window chosen on the first, so the animation does not jitter.
enum FillCrop {
    static func apply(_ image: Image, options: DecodingOptions) -> Image {
        guard options.contentMode == .fill, let target = options.targetSize else { return image }
        let size = image.size.clamped(to: target)
        guard size != image.size else { return image }
        let origin = GravityCrop.origin(in: image, size: size, gravity: options.gravity)
        var result = image.mappingFrames { GravityCrop.crop($0, origin: origin, size: size) }
        result.carryColorAndMetadata(from: image)
        return result
    }
}
