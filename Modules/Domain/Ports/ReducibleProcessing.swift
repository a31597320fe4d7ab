/// A processor that sizes the image itself from the whole source (imgproxy's crop and resize),
/// and can make the same result from a smaller decode of it: the pipeline then decodes only
/// as large as ``sufficientSize(forSource:)`` asks (a JPEG's DCT-scaled decode), or uses the
/// source's reduction it keeps in memory, instead of decoding every pixel.
///
/// The pipeline offers this only to the first processor of a request without a target size.
public protocol ReducibleProcessing: ImageProcessing {
    /// The least size the whole source, of `size` as decoded at full size, may be decoded at
    /// for this processor's result to lose nothing: `size` itself when it needs every pixel.
    func sufficientSize(forSource size: PixelSize) -> PixelSize
    /// The result of ``ImageProcessing/process(_:)`` on the full decode, made from `image`,
    /// the whole source decoded smaller than `sourceSize` (at least ``sufficientSize(forSource:)``).
    func process(_ image: Image, sourceSize: PixelSize) throws(ImageProcessingError) -> Image
}
