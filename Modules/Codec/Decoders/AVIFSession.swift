import CAVIF
import CCodecLoader
import Foundation
import OspreyDomain
import OspreyPixels

/// One libavif decoder over bytes in memory; ``with(_:limits:_:)`` destroys it when the work
/// is done, whichever way it ends.
struct AVIFSession: ~Copyable {
    /// What the container says about the image, read before any frame is decoded.
    struct Header {
        var size: PixelSize            // as stored (`ispe`), before `clap` and `irot`
        var crop: (x: Int, y: Int, size: PixelSize)
        var orientation: Orientation
        var depth: Int
        var hasAlpha: Bool
        var frameCount: Int
        var profile: ColorProfile?     // embedded ICC, or one made from CICP code points
        var cicp: String
        /// PQ or HLG samples, mapped to SDR by ``HDRToneMapping`` rather than by a profile.
        var hdr: (transfer: HDRToneMapping.Transfer, primaries: [(Double, Double)])?
        /// H.273's colour primaries, as the file states them.
        var primaries: UInt16
        /// The code points of PQ or HLG samples, for an image that keeps them.
        var hdrCodePoints: ColorCodePoints? {
            hdr.map { ColorCodePoints(primaries: Int(primaries), transfer: $0.transfer.rawValue) }
        }
    }

    private let decoder: UnsafeMutablePointer<avifDecoder>
    let header: Header

    private init(_ decoder: UnsafeMutablePointer<avifDecoder>, header: Header) {
        self.decoder = decoder
        self.header = header
    }

    /// Runs `body` with a session on `data` once the container is parsed and within `limits`.
    static func with<T>(_ data: Data, limits: DecodingLimits, _ body: (borrowing Self) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        guard osp_avif_available() != 0 else {
            throw .unsupportedFormat(.avif, detail: "libavif cannot be loaded: \(String(cString: osp_avif_load_error()))")
        }
        let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return .failure(.corrupt(.avif, detail: "empty input")) }
            guard let decoder = avifDecoderCreate() else { return .failure(.corrupt(.avif, detail: "out of memory")) }
            defer { avifDecoderDestroy(decoder) }
            decoder.pointee.maxThreads = 2
            decoder.pointee.ignoreXMP = AVIF_TRUE
            // As browsers read AVIF: a box that bends the letter of the spec is not an error.
            decoder.pointee.strictFlags = UInt32(AVIF_STRICT_DISABLED.rawValue)
            // libavif refuses a limit above its own default (16384 × 16384 pixels).
            decoder.pointee.imageSizeLimit = UInt32(min(limits.maxPixels, 16384 * 16384))
            do throws(ImageDecodingError) {
                try check(avifDecoderSetIOMemory(decoder, base.assumingMemoryBound(to: UInt8.self), raw.count), decoder)
                try check(avifDecoderParse(decoder), decoder, limits: limits)
                let header = try readHeader(decoder, limits: limits)
                if let coded = AV1SequenceHeader.codedSize(in: raw),
                   coded.width != header.size.width || coded.height != header.size.height {
                    throw .corrupt(.avif, detail: "the container declares \(header.size) but the AV1 stream codes \(coded.width)x\(coded.height)")
                }
                return .success(try body(Self(decoder, header: header)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func readHeader(_ decoder: UnsafeMutablePointer<avifDecoder>, limits: DecodingLimits) throws(ImageDecodingError) -> Header {
        let image = decoder.pointee.image.pointee
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        try limits.check(width: size.width, height: size.height)
        var crop = (x: 0, y: 0, size: size)
        if image.transformFlags & AVIF_TRANSFORM_CLAP.rawValue != 0 {
            var rect = avifCropRect()
            var diagnostics = avifDiagnostics()
            var clap = image.clap
            if avifCropRectConvertCleanApertureBox(&rect, &clap, image.width, image.height, image.yuvFormat, &diagnostics) != 0 {
                crop = (Int(rect.x), Int(rect.y), PixelSize(width: Int(rect.width), height: Int(rect.height)))
            } else if let rounded = cropRect(clap, size: size, subsampled: image.yuvFormat != AVIF_PIXEL_FORMAT_YUV444) {
                crop = rounded
            } else {
                ColorManagement.logger.warning("ignoring an AVIF clean aperture that does not fit the image")
            }
        }
        let angle = image.transformFlags & AVIF_TRANSFORM_IROT.rawValue != 0 ? Int(image.irot.angle) : 0
        let mirror: Int? = image.transformFlags & AVIF_TRANSFORM_IMIR.rawValue != 0 ? Int(image.imir.mode) : nil
        var profile: ColorProfile?
        let hdr = HDRToneMapping.transfer(cicp: Int(image.transferCharacteristics)).map {
            (transfer: $0, primaries: ColorCodePoints.chromaticities(Int(image.colorPrimaries)) ?? ColorCodePoints.bt709)
        }
        if hdr != nil {
            profile = nil  // the tone mapping converts to sRGB itself
        } else if image.icc.size > 0, let bytes = image.icc.data {
            profile = ColorProfile(data: Data(bytes: bytes, count: image.icc.size))
        } else if let icc = CICPProfile.iccData(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics)) {
            profile = ColorProfile(data: icc, name: CICPProfile.describe(primaries: Int(image.colorPrimaries),
                                                                         transfer: Int(image.transferCharacteristics),
                                                                         matrix: Int(image.matrixCoefficients)))
        }
        return Header(size: size, crop: crop, orientation: Orientation(irotAngle: angle, imirMode: mirror), depth: Int(image.depth),
                      hasAlpha: decoder.pointee.alphaPresent != 0, frameCount: max(1, Int(decoder.pointee.imageCount)), profile: profile,
                      cicp: CICPProfile.describe(primaries: Int(image.colorPrimaries), transfer: Int(image.transferCharacteristics),
                                                 matrix: Int(image.matrixCoefficients)), hdr: hdr, primaries: image.colorPrimaries)
    }

    /// The clean aperture of a `clap` box libavif finds off the pixel grid (an offset of half a
    /// pixel): its size as the box says, its corner rounded down to the chroma grid.
    private static func cropRect(_ clap: avifCleanApertureBox, size: PixelSize, subsampled: Bool) -> (x: Int, y: Int, size: PixelSize)? {
        func value(_ n: UInt32, _ d: UInt32, signed: Bool = false) -> Double? {
            guard d != 0 else { return nil }
            return signed ? Double(Int32(bitPattern: n)) / Double(d) : Double(n) / Double(d)
        }
        guard let width = value(clap.widthN, clap.widthD), let height = value(clap.heightN, clap.heightD),
              let offsetX = value(clap.horizOffN, clap.horizOffD, signed: true), let offsetY = value(clap.vertOffN, clap.vertOffD, signed: true),
              width >= 1, height >= 1 else { return nil }
        let grid = subsampled ? 2 : 1
        let x = Int(((Double(size.width) - width) / 2 + offsetX).rounded(.down)) / grid * grid
        let y = Int(((Double(size.height) - height) / 2 + offsetY).rounded(.down)) / grid * grid
        let crop = PixelSize(width: Int(width), height: Int(height))
        guard x >= 0, y >= 0, x + crop.width <= size.width, y + crop.height <= size.height else { return nil }
        return (x, y, crop)
    }

    /// The next frame at `output` (stored orientation, cropped) and its duration, or `nil` at the end.
    func nextFrame(output: PixelSize) throws(ImageDecodingError) -> (Image, Int)? {
        guard let image = try nextImage() else { return nil }
        let format: PixelFormat = header.hasAlpha ? .rgba8 : .rgb8
        let (width, channels) = (header.crop.size.width, format.bytesPerPixel)
        var sink = Downsampler(sourceSize: header.crop.size, outputSize: output, pixelFormat: format)
        if let hdr = header.hdr {
            // Two passes over 16-bit strips: the image's peak first, then the mapping from it,
            // so no full-size copy is held.
            var brightest = 0
            try forEachStrip(of: image, depth: 16) { (samples: UnsafeBufferPointer<UInt16>, _) in
                brightest = max(brightest, HDRToneMapping.brightestSample(in: samples, channels: channels))
            }
            let mapping = HDRToneMapping(transfer: hdr.transfer, primaries: hdr.primaries, maximumSample: brightest, sampleMaximum: 65535)
            var mapped = [UInt8](repeating: 0, count: width * channels * Self.stripRows)
            try forEachStrip(of: image, depth: 16) { (samples: UnsafeBufferPointer<UInt16>, rows) in
                mapped.withUnsafeMutableBufferPointer { target in
                    mapping.map(samples, channels: channels, into: target)
                    sink.consume(target.baseAddress!, count: rows, stride: width * channels)
                }
            }
        } else {
            try forEachStrip(of: image, depth: 8) { (samples: UnsafeBufferPointer<UInt8>, rows) in
                sink.consume(samples.baseAddress!, count: rows, stride: width * channels)
            }
        }
        return (sink.finish(), AnimationAssembler.milliseconds(seconds: decoder.pointee.imageTiming.duration))
    }

    /// The first frame of a 10- or 12-bit file, its samples kept at 16 bits (an HDR signal as
    /// it is, with its code points): converted whole, then resampled to `output`; `nil` when
    /// there is no frame.
    func nextFrameSixteen(output: PixelSize) throws(ImageDecodingError) -> Image? {
        guard let image = try nextImage() else { return nil }
        let format: PixelFormat = header.hasAlpha ? .rgba16 : .rgb16
        var whole = [UInt8](repeating: 0, count: header.crop.size.byteCount(bytesPerPixel: format.bytesPerPixel))
        var offset = 0
        try forEachStrip(of: image, depth: 16) { (samples: UnsafeBufferPointer<UInt16>, _) in
            whole.withUnsafeMutableBytes { target in
                (target.baseAddress! + offset).copyMemory(from: UnsafeRawPointer(samples.baseAddress!), byteCount: samples.count * 2)
            }
            offset += samples.count * 2
        }
        let decoded = try! Image(width: header.crop.size.width, height: header.crop.size.height, pixelFormat: format, pixels: whole)
        var resized = Resampler.resize(decoded, to: output)
        resized.colorCodePoints = header.hdrCodePoints
        return resized
    }

    /// libavif's next decoded frame, checked to have the container's size; `nil` at the end.
    private func nextImage() throws(ImageDecodingError) -> UnsafeMutablePointer<avifImage>? {
        let status = avifDecoderNextImage(decoder)
        if status == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        try Self.check(status, decoder)
        let image = decoder.pointee.image!
        guard Int(image.pointee.width) == header.size.width, Int(image.pointee.height) == header.size.height else {
            throw .corrupt(.avif, detail: "the container declares \(header.size) but the frame is \(image.pointee.width)x\(image.pointee.height)")
        }
        return image
    }

    private static let stripRows = 64

    /// Converts `image`'s cropped area to RGB(A) of `depth` bits in strips of rows, each handed
    /// to `body` with its row count: memory holds one strip, never a full-size RGB copy.
    private func forEachStrip<Sample: FixedWidthInteger>(of image: UnsafeMutablePointer<avifImage>, depth: Int,
                                                         _ body: (UnsafeBufferPointer<Sample>, Int) -> Void) throws(ImageDecodingError) {
        let crop = header.crop
        let channels = header.hasAlpha ? 4 : 3
        var strip = [Sample](repeating: 0, count: crop.size.width * channels * Self.stripRows)
        var row = 0
        while row < crop.size.height {
            try ImageDecodingError.checkCancellation()
            let rows = min(Self.stripRows, crop.size.height - row)
            var view = avifImage()
            var rect = avifCropRect(x: UInt32(crop.x), y: UInt32(crop.y + row), width: UInt32(crop.size.width), height: UInt32(rows))
            try Self.check(avifImageSetViewRect(&view, image, &rect), decoder)
            var rgb = avifRGBImage()
            avifRGBImageSetDefaults(&rgb, &view)
            rgb.depth = UInt32(depth)
            rgb.format = header.hasAlpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB
            rgb.rowBytes = UInt32(crop.size.width * channels * MemoryLayout<Sample>.size)
            let status = strip.withUnsafeMutableBytes { buffer in
                rgb.pixels = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return avifImageYUVToRGB(&view, &rgb)
            }
            try Self.check(status, decoder)
            strip.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0.prefix(crop.size.width * channels * rows)), rows) }
            row += rows
        }
    }

    private static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>, limits: DecodingLimits = .default) throws(ImageDecodingError) {
        guard result != AVIF_RESULT_OK else { return }
        let message = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        // libavif refuses sizes over its limit while parsing ("dimensions are too large [WxH]").
        if let size = detail.split(separator: "[").last?.split(separator: "]").first?.split(separator: "x"),
           detail.contains("too large"), size.count == 2, let width = Int(size[0]), let height = Int(size[1]) {
            throw .tooManyPixels(width: width, height: height, limit: limits.maxPixels)
        }
        throw .corrupt(.avif, detail: detail.isEmpty ? message : "\(message): \(detail)")
    }
}
