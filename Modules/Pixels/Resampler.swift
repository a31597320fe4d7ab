import OspreyDomain

/// High-quality resampling with a separable Lanczos-3 filter.
///
/// The one resampler of Osprey: decoders use it after a scaled decode, and the resize
/// processor uses it. A reduction by 4 or more on a side is first averaged in integer blocks
/// to about twice the target (as libvips does), then filtered; the filter runs in fixed point
/// on the CPU's vector unit. Straight alpha is filtered premultiplied, so transparent pixels do
/// not bleed their colour into their neighbours; the result has the input's pixel format.
/// 16-bit images are filtered in floating point (``FloatResampler``), without the box shrink.
public enum Resampler {
    /// `image` resampled to `size`. Returns `image` itself when the size is unchanged.
    ///
    /// When the calling task is cancelled, it stops within a few rows and returns `image`
    /// itself: its caller, being cancelled too, throws the result away.
    public static func resize(_ image: Image, to size: PixelSize) -> Image {
        guard size != image.size, !size.isEmpty else { return image }
        // 16-bit samples (kept for an output that carries them) take the float path.
        if image.pixelFormat.isHighBitDepth { return FloatResampler.resize(image, to: size) }
        let box = (x: BoxShrink.factor(source: image.width, destination: size.width),
                   y: BoxShrink.factor(source: image.height, destination: size.height))
        guard let pixels = FixedPointResampler.resize(image, to: size, box: box) else { return image }
        return try! Image(width: size.width, height: size.height, pixelFormat: image.pixelFormat, pixels: pixels)
    }

    /// `image` averaged in integer blocks on each side reduced by 4 or more, to at most about
    /// twice `size`; itself otherwise.
    package static func boxShrunk(_ image: Image, for size: PixelSize) -> Image {
        let factorX = BoxShrink.factor(source: image.width, destination: size.width)
        let factorY = BoxShrink.factor(source: image.height, destination: size.height)
        return factorX == 1 && factorY == 1 ? image : BoxShrink.shrink(image, factorX: factorX, factorY: factorY)
    }

    /// A float channel value rounded and clamped to a byte.
    @inline(__always)
    public static func clampByte(_ value: Float) -> UInt8 {
        value <= 0 ? 0 : value >= 255 ? 255 : UInt8(value + 0.5)
    }
}
