import OspreyDomain
import OspreyPixels

/// The last step of every decoder: a `fill` decode covers the target, then its centre is
/// cropped, so the result is exactly the target size (every frame of an animation).
enum FillCrop {
    static func apply(_ image: Image, options: DecodingOptions) -> Image {
        guard options.contentMode == .fill, let target = options.targetSize, image.width > target.width || image.height > target.height else {
            return image
        }
        var result = image.mappingFrames { CentreCrop.crop($0, to: target) }
        result.colorProfile = image.colorProfile
        return result
    }
}
