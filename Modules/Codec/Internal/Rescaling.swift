import OspreyDomain
import OspreyPixels

/// What a decoder returns for `options`, made from a larger decode of the same image (a
/// reduction): resampled to the output size, then cropped for `fill` as decoders crop.
enum Rescaling {
    static func rescale(_ reduction: Image, options: DecodingOptions) -> Image {
        var resized = Resampler.resize(reduction, to: options.outputSize(for: reduction.size))
        resized.carryColorAndMetadata(from: reduction)
        return FillCrop.apply(resized, options: options)
    }
}
