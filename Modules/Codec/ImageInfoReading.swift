import OspreyDomain

/// A decoder that reads what an input's header says without decoding its pixels; the
/// built-in decoders do. ``ImageCodec/info(_:)`` asks it, and decodes in full a format
/// whose decoder does not read headers.
public protocol ImageInfoReading: ImageDecoding {
    /// Format, displayed size, orientation, alpha and frames, from the header.
    func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo
}

extension JPEGDecoder: ImageInfoReading {}
extension PNGDecoder: ImageInfoReading {}
extension GIFDecoder: ImageInfoReading {}
extension WebPDecoder: ImageInfoReading {}
extension AVIFDecoder: ImageInfoReading {}
extension HEICDecoder: ImageInfoReading {}
extension JXLDecoder: ImageInfoReading {}
extension TIFFDecoder: ImageInfoReading {}
extension BMPDecoder: ImageInfoReading {}
extension ICODecoder: ImageInfoReading {}
extension SVGDecoder: ImageInfoReading {}
