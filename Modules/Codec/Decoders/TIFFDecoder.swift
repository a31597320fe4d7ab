import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes TIFF with libtiff: strips and tiles, 1 to 16 bits a sample (reduced to 8, or 16-bit
/// gray, RGB and straight RGBA kept at 16 with ``DecodingOptions/keepsHighBitDepth``),
/// grey, palette, RGB, YCbCr and CMYK, alpha, its ICC profile, its Orientation tag (EXIF's
/// values, so `ar:0` keeps it as stored), and pages as the frames of an animation when every
/// frame is asked for (100 ms each; otherwise the first page). 8-bit CMYK with a profile goes
/// through Little CMS, as JPEG's; without one through libtiff's own arithmetic.
///
/// libtiff reads the whole page at full size, so memory holds that page and the output; the
/// header's size is checked against the limits first and libtiff's own buffers are bounded.
public struct TIFFDecoder: ImageDecoding {
    /// The limits checked from the header before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .tiff)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let data = try InputReader.allBytes(of: input)
        return try Self.with(data) { tiff throws(ImageDecodingError) in
            let first = try Self.info(tiff, page: 0)
            let stored = PixelSize(width: Int(first.width), height: Int(first.height))
            try limits.check(width: stored.width, height: stored.height)
            // Pages of another size than the first are not frames of its animation.
            let count = options.frames == .all ? Int(osp_tiff_page_count(tiff)) : 1
            if count > 1 { try limits.checkAnimation(canvas: stored, frames: count) }
            var frames: [Image] = []
            for page in 0..<Int32(count) {
                let info = page == 0 ? first : try Self.info(tiff, page: page)
                guard info.width == first.width, info.height == first.height else { continue }
                frames.append(try decodePage(tiff, page: page, info: info, options: options))
            }
            guard frames.count > 1 else { return FillCrop.apply(frames[0], options: options) }
            let animation = ImageAnimation(frames: frames.map { .init(image: $0, duration: .milliseconds(100)) }, loopCount: 0)
            return FillCrop.apply(Image(animation: animation), options: options)
        }
    }

    /// One page upright (or as stored), at the output size, in sRGB or carrying its profile.
    private func decodePage(_ tiff: OpaquePointer, page: Int32, info: osp_tiff_info, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try ImageDecodingError.checkCancellation()
        let stored = PixelSize(width: Int(info.width), height: Int(info.height))
        let profile = info.icc.map { ColorProfile(data: Data(bytes: $0, count: Int(info.icc_length))) }
        var message = [CChar](repeating: 0, count: 256)
        var image: Image
        var carried = profile
        if info.is_cmyk != 0 {
            var cmyk = [UInt8](repeating: 0, count: stored.byteCount(bytesPerPixel: 4))
            guard osp_tiff_read_samples(tiff, page, &cmyk, 4, &message, message.count) == 0 else { throw Self.corrupt(message) }
            var rgb = [UInt8](repeating: 0, count: stored.byteCount(bytesPerPixel: 3))
            if let profile, let transform = ColorManagement.Transform(cmykProfile: profile.data, inverted: false) {
                cmyk.withUnsafeBufferPointer { source in
                    rgb.withUnsafeMutableBufferPointer { transform.run(source.baseAddress!, $0.baseAddress!, pixels: stored.area) }
                }
            } else {
                CMYK.convert(cmyk, into: &rgb, pixels: stored.area, inverted: false)
            }
            image = try Self.image(stored, .rgb8, rgb)
            carried = nil  // CMYK's profile has done its work: the pixels are sRGB now
        } else if options.keepsHighBitDepth, info.deep_samples > 0 {
            image = try Self.deepPage(tiff, page: page, size: stored, samples: Int(info.deep_samples))
        } else {
            var rgba = [UInt8](repeating: 0, count: stored.byteCount(bytesPerPixel: 4))
            guard osp_tiff_read_rgba(tiff, page, &rgba, &message, message.count) == 0 else { throw Self.corrupt(message) }
            image = PixelConversion.converted(try Self.image(stored, .rgba8Premultiplied, rgba), to: info.has_alpha != 0 ? .rgba8 : .rgb8)
        }
        let orientation = Orientation(exifValue: Int(info.orientation), applying: options)
        let output = orientation.storedOutputSize(for: stored, options: options)
        if output != stored { image = Resampler.resize(image, to: output) }
        return ColorManagement.apply(carried, to: orientation.applied(to: image), handling: options.colorHandling)
    }

    /// A page of 16-bit samples as they are: gray, RGB or RGBA (gray with alpha made RGBA).
    private static func deepPage(_ tiff: OpaquePointer, page: Int32, size: PixelSize, samples: Int) throws(ImageDecodingError) -> Image {
        var message = [CChar](repeating: 0, count: 256)
        var read = [UInt8](repeating: 0, count: size.byteCount(bytesPerPixel: samples * 2))
        guard osp_tiff_read_samples(tiff, page, &read, Int32(samples * 2), &message, message.count) == 0 else { throw corrupt(message) }
        guard samples == 2 else { return try image(size, samples == 1 ? .gray16 : samples == 3 ? .rgb16 : .rgba16, read) }
        var rgba = [UInt8](repeating: 0, count: size.byteCount(bytesPerPixel: 8))
        for pixel in 0..<size.area {
            let (gray, alpha) = (read[pixel * 4..<pixel * 4 + 2], read[pixel * 4 + 2..<pixel * 4 + 4])
            rgba.replaceSubrange(pixel * 8..<pixel * 8 + 8, with: Array(gray + gray + gray + alpha))
        }
        return try image(size, .rgba16, rgba)
    }

    /// What decoding holds: every page asked for at full size (libtiff reads pages whole), the
    /// RGBA raster libtiff fills (and the CMYK samples and their conversion for CMYK), and one
    /// strip or tile of libtiff's, which the header's check keeps within the page.
    public func decodeEstimate(of input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> DecodeEstimate? {
        try InputReader.checkLength(of: input, limits: limits)
        return try Self.with(try InputReader.allBytes(of: input)) { tiff throws(ImageDecodingError) in
            let header = try Self.info(tiff, page: 0)
            let size = PixelSize(width: Int(header.width), height: Int(header.height))
            let raster = size.byteCount(bytesPerPixel: header.is_cmyk != 0 ? 7 : 4)
            let (working, overflow) = raster.addingReportingOverflow(Int(clamping: header.chunk_bytes))
            return DecodeEstimate(size: size, frames: options.frames == .all ? max(1, Int(osp_tiff_page_count(tiff))) : 1,
                                  bytesPerPixel: header.has_alpha != 0 ? 4 : 3, workingBytes: overflow ? .max : working)
        }
    }

    /// What the first page's header says, and how many pages there are.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        return try Self.with(try InputReader.allBytes(of: input)) { tiff throws(ImageDecodingError) in
            let header = try Self.info(tiff, page: 0)
            let orientation = Orientation(exifValue: Int(header.orientation))
            let size = orientation.displayedSize(of: PixelSize(width: Int(header.width), height: Int(header.height)))
            var info = ImageInfo(format: .tiff, width: size.width, height: size.height, orientation: orientation.exifValue,
                                 hasAlpha: header.has_alpha != 0, frameCount: Int(osp_tiff_page_count(tiff)))
            info.bitDepth = Int(header.bits)
            let profile = header.icc.map { ColorProfile(data: Data(bytes: $0, count: Int(header.icc_length))) }
            info.describe(header.is_cmyk != 0 ? nil : profile, pixelFormat: header.has_alpha != 0 ? .rgba8 : .rgb8)
            return info
        }
    }

    private static func info(_ tiff: OpaquePointer, page: Int32) throws(ImageDecodingError) -> osp_tiff_info {
        var info = osp_tiff_info()
        var message = [CChar](repeating: 0, count: 256)
        guard osp_tiff_read_info(tiff, page, &info, &message, message.count) == 0 else { throw corrupt(message) }
        return info
    }

    private static func image(_ size: PixelSize, _ format: PixelFormat, _ pixels: [UInt8]) throws(ImageDecodingError) -> Image {
        do {
            return try Image(width: size.width, height: size.height, pixelFormat: format, pixels: pixels)
        } catch {
            throw .corrupt(.tiff, detail: "\(error)")
        }
    }

    private static func corrupt(_ message: [CChar]) -> ImageDecodingError {
        .corrupt(.tiff, detail: String(cMessage: message))
    }

    /// Runs `body` with `data` opened by libtiff.
    private static func with<T>(_ data: Data, _ body: (OpaquePointer) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
            var message = [CChar](repeating: 0, count: 256)
            guard let tiff = osp_tiff_open(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &message, message.count) else {
                return .failure(corrupt(message))
            }
            defer { osp_tiff_close(tiff) }
            do throws(ImageDecodingError) {
                return .success(try body(tiff))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
