import CWebP
import Foundation
import OspreyDomain
import OspreyPixels

/// Encodes WebP with libwebp: lossy at a quality, or lossless; alpha kept. An animated
/// `Image` is written as an animated WebP (every frame, its duration and the loop count),
/// a carried `ColorProfile` goes into an `ICCP` chunk, and the metadata the options keep into
/// `EXIF` and `XMP ` chunks.
public struct WebPEncoder: ImageEncoding {
    public var capabilities: [EncoderCapabilities] { [EncoderCapabilities(format: .webp, animation: true, alpha: true, lossless: true, quality: true)] }

    /// Creates an encoder.
    public init() {}

    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format == .webp else { throw .unsupportedFormat(options.format) }
        let encoded = if let animation = image.animation, animation.frames.count > 1 {
            try Self.encodeAnimation(animation, options: options)
        } else {
            try Self.encodeStill(image, options: options)
        }
        var chunks: [(String, Data)] = []
        if let profile = image.colorProfile { chunks.append(("ICCP", profile.data)) }
        if let metadata = image.metadata?.kept(by: options.metadata) {
            if let exif = metadata.exif { chunks.append(("EXIF", exif)) }
            if let xmp = metadata.xmp { chunks.append(("XMP ", xmp)) }
        }
        return chunks.isEmpty ? encoded : try Self.adding(chunks, to: encoded)
    }

    private static func quality(_ options: EncodingOptions) -> Float { Float(max(0, min(1, options.quality)) * 100) }

    private static func encodeStill(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        let alpha = image.pixelFormat.hasAlpha
        let source = PixelConversion.converted(image, to: alpha ? .rgba8 : .rgb8)
        let quality = quality(options)
        var output: UnsafeMutablePointer<UInt8>?
        let (w, h, stride) = (Int32(source.width), Int32(source.height), Int32(source.bytesPerRow))
        let size = source.pixels.withUnsafeBufferPointer { px -> Int in
            switch (alpha, options.lossless) {
            case (true, true): WebPEncodeLosslessRGBA(px.baseAddress, w, h, stride, &output)
            case (true, false): WebPEncodeRGBA(px.baseAddress, w, h, stride, quality, &output)
            case (false, true): WebPEncodeLosslessRGB(px.baseAddress, w, h, stride, &output)
            case (false, false): WebPEncodeRGB(px.baseAddress, w, h, stride, quality, &output)
            }
        }
        guard size > 0, let output else { throw .failed(.webp, detail: "libwebp could not encode a \(source.width)x\(source.height) image") }
        defer { WebPFree(output) }
        return Data(bytes: output, count: size)
    }

    /// Every frame through libwebp's animation encoder, which keeps only what changes between frames.
    private static func encodeAnimation(_ animation: ImageAnimation, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        let first = animation.frames[0].image
        var encoderOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&encoderOptions) != 0 else { throw .failed(.webp, detail: "libwebp version mismatch") }
        encoderOptions.anim_params.loop_count = Int32(min(max(animation.loopCount, 0), 65535))
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &encoderOptions) else {
            throw .failed(.webp, detail: "libwebp could not start an animation of \(first.width)x\(first.height)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .failed(.webp, detail: "libwebp version mismatch") }
        config.quality = quality(options)
        config.lossless = options.lossless ? 1 : 0
        var timestamp = 0
        for frame in animation.frames {
            let source = PixelConversion.converted(frame.image, to: frame.image.pixelFormat.hasAlpha ? .rgba8 : .rgb8)
            guard source.size == first.size else { throw .failed(.webp, detail: "animation frames differ in size") }
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw .failed(.webp, detail: "libwebp version mismatch") }
            picture.width = Int32(source.width)
            picture.height = Int32(source.height)
            picture.use_argb = 1
            let added = source.pixels.withUnsafeBufferPointer { px -> Bool in
                defer { WebPPictureFree(&picture) }
                let stride = Int32(source.bytesPerRow)
                let imported = source.pixelFormat == .rgb8 ? WebPPictureImportRGB(&picture, px.baseAddress, stride)
                    : WebPPictureImportRGBA(&picture, px.baseAddress, stride)
                return imported != 0 && WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0
            }
            guard added else { throw .failed(.webp, detail: String(cString: WebPAnimEncoderGetError(encoder))) }
            timestamp += Int(frame.duration / .milliseconds(1))
        }
        var data = WebPData()
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0, WebPAnimEncoderAssemble(encoder, &data) != 0,
              let bytes = data.bytes else {
            throw .failed(.webp, detail: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Data(bytes: bytes, count: data.size)
    }

    /// `webp` with `chunks` (`ICCP`, `EXIF`, `XMP `), through libwebp's muxer.
    private static func adding(_ chunks: [(String, Data)], to webp: Data) throws(ImageEncodingError) -> Data {
        let result: Data? = webp.withUnsafeBytes { image in
            var imageData = WebPData(bytes: image.bindMemory(to: UInt8.self).baseAddress, size: image.count)
            guard let mux = WebPMuxCreate(&imageData, 1) else { return nil }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let set = payload.withUnsafeBytes { bytes in
                    var chunk = WebPData(bytes: bytes.bindMemory(to: UInt8.self).baseAddress, size: bytes.count)
                    return WebPMuxSetChunk(mux, fourCC, &chunk, 1) == WEBP_MUX_OK  // copied: the bytes may go
                }
                guard set else { return nil }
            }
            var output = WebPData()
            guard WebPMuxAssemble(mux, &output) == WEBP_MUX_OK, let bytes = output.bytes else { return nil }
            defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
            return Data(bytes: bytes, count: output.size)
        }
        guard let result else { throw .failed(.webp, detail: "libwebp could not add the colour profile or metadata") }
        return result
    }
}
